import type { Product, SkuVariant } from '#common/contracts/catalog.ts';

/** What a product card needs: the first image, two features and how many more, a short text. */
export type CardProduct = Pick<
  Product,
  'id' | 'slug' | 'title' | 'price' | 'salePrice' | 'rating' | 'stock' | 'variantLabel' | 'description'
> & {
  images: string[];
  features: string[];
  featureCount: number;
  skuVariants: SkuVariant[];
};

/** Listing pages send only this to the browser, not the whole product. */
export function toCardProduct(product: Product): CardProduct {
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    price: product.price,
    salePrice: product.salePrice,
    rating: product.rating,
    stock: product.stock,
    variantLabel: product.variantLabel,
    description:
      product.description.length > 220 ? `${product.description.slice(0, 217).trimEnd()}…` : product.description,
    images: product.images.slice(0, 1),
    features: product.features.slice(0, 2),
    featureCount: product.features.length,
    skuVariants: product.skuVariants.map((variant) => ({ ...variant, images: [] })),
  };
}
