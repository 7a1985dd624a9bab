import { Link } from 'react-router';
import type { Product } from '#common/contracts/catalog.ts';
import { effectivePrice, formatCents, salePercent } from '#common/money.ts';
import { ProductImage } from './product-image.tsx';

export function ProductCard({ product, priority = false }: { product: Product; priority?: boolean }) {
  const price = effectivePrice(product.price, product.salePrice);
  const percent = salePercent(product.price, product.salePrice);
  return (
    <article className="group flex flex-col overflow-hidden rounded-2xl border border-sage-100 bg-white shadow-sm transition hover:shadow-md">
      <Link to={`/product/${product.slug}`} className="relative block aspect-square overflow-hidden bg-sage-50">
        <ProductImage
          src={product.images[0]}
          alt={product.title}
          sizes="(min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw"
          priority={priority}
          className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.03]"
        />
        {percent > 0 ? (
          <span className="absolute top-3 left-3 rounded-full bg-red-600 px-2.5 py-1 text-xs font-bold text-white">
            -{percent}%
          </span>
        ) : null}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-medium text-sage-900">
          <Link to={`/product/${product.slug}`} className="hover:underline">
            {product.title}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-stone-600">{product.description}</p>
        <p className="mt-auto flex items-baseline gap-2 pt-2">
          <span className="text-lg font-semibold text-sage-900">{formatCents(price)}</span>
          {percent > 0 ? <s className="text-sm text-stone-500">{formatCents(product.price)}</s> : null}
        </p>
      </div>
    </article>
  );
}
