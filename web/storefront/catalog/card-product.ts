import type { ProductSummary } from '#common/contracts/catalog.ts';

/** What a product card needs: the first image, two features and how many more, the summary. */
export type CardProduct = Pick<
  ProductSummary,
  'id' | 'slug' | 'title' | 'price' | 'salePrice' | 'rating' | 'stock' | 'variantLabel' | 'summary' | 'skuVariants'
> & {
  images: string[];
  features: string[];
  featureCount: number;
};

/** Listing pages send only this to the browser. */
export function toCardProduct(product: ProductSummary): CardProduct {
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    price: product.price,
    salePrice: product.salePrice,
    rating: product.rating,
    stock: product.stock,
    variantLabel: product.variantLabel,
    summary: product.summary,
    images: product.images.slice(0, 1),
    features: product.features.slice(0, 2),
    featureCount: product.features.length,
    skuVariants: product.skuVariants,
  };
}
