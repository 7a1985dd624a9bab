import type { SkuVariant } from '#common/contracts/catalog.ts';
import { ProductImage } from '#web/storefront/catalog/product-image.tsx';

/**
 * The variants as a group of radio buttons with thumbnails. Variants out of stock or inactive
 * are shown but disabled, so the arrow keys (the browser's own radio-group keys) move through
 * the variants in stock, wrapping around.
 */
export function VariantSelector({
  label,
  variants,
  selected,
  onSelect,
}: {
  label: string;
  variants: SkuVariant[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  const current = variants[selected];
  return (
    <fieldset>
      <legend className="text-sm font-medium text-stone-800">
        {label}: <span className="font-normal text-stone-700">{current?.name}</span>
      </legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {variants.map((variant, index) => {
          const available = variant.isActive && variant.stock > 0;
          return (
            <label key={variant.skuAttr} className={available ? 'cursor-pointer' : 'cursor-not-allowed'}>
              <input
                type="radio"
                name="variant"
                value={variant.skuAttr}
                checked={index === selected}
                disabled={!available}
                onChange={() => onSelect(index)}
                className="peer sr-only"
              />
              <span
                className={`flex items-center gap-2 rounded-xl border-2 border-sage-100 bg-white p-1.5 pr-3 text-sm peer-checked:border-sage-600 peer-checked:bg-sage-50 peer-focus-visible:ring-2 peer-focus-visible:ring-sage-500 ${
                  available ? 'hover:border-sage-300' : 'opacity-50'
                }`}
              >
                <ProductImage
                  src={variant.image ?? undefined}
                  alt=""
                  sizes="48px"
                  width={400}
                  height={400}
                  className="h-10 w-10 rounded-lg object-cover"
                />
                <span className={available ? '' : 'line-through'}>{variant.label || variant.name}</span>
                {available ? null : <span className="sr-only">(unavailable)</span>}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
