import { initialVariantIndex } from '#common/catalog-rules.ts';
import type { Product, SkuVariant } from '#common/contracts/catalog.ts';

/** What the cart needs of a variant. */
type CartVariant = Pick<
  SkuVariant,
  'skuId' | 'skuAttr' | 'name' | 'price' | 'salePrice' | 'image' | 'isActive' | 'stock'
>;

import { PLACEHOLDER_IMAGE } from '#common/images.ts';
import { centsToDollars, effectivePrice } from '#common/money.ts';
import { addToCart } from '#web/storefront/cart/cart-storage.ts';
import { adCartProperties, sendAdEvent } from '#web/storefront/tracking/ad-tracker.ts';

/** The variant bought without a choice: the first active in-stock one (or the single one). */
export function defaultVariant<V extends CartVariant>(product: { skuVariants: V[] }): V | undefined {
  return product.skuVariants[initialVariantIndex(product.skuVariants)];
}

/** Puts one unit of a product (in the given variant) in the cart, priced in dollars as the cart keeps it. */
export function addProductToCart(
  product: Pick<Product, 'id' | 'title' | 'price' | 'salePrice' | 'images' | 'variantLabel'>,
  variant: CartVariant | undefined,
  quantity = 1,
): void {
  const price = variant
    ? effectivePrice(variant.price, variant.salePrice)
    : effectivePrice(product.price, product.salePrice);
  const dollars = centsToDollars(price);
  // Spec 7: skipped silently when no tracker is present (see sendAdEvent).
  sendAdEvent(
    'AddToCart',
    adCartProperties([{ id: product.id, title: product.title, price: dollars, quantity }], dollars * quantity),
  );
  addToCart({
    id: product.id,
    title: product.title,
    price: dollars,
    quantity,
    image: variant?.image ?? product.images[0] ?? PLACEHOLDER_IMAGE,
    ...(variant
      ? {
          skuId: variant.skuId,
          skuAttr: variant.skuAttr,
          variantName: variant.name,
          variantLabel: product.variantLabel,
        }
      : {}),
  });
}
