import { FEATURE_TAG_MAX_CHARS, LOW_STOCK_THRESHOLD } from './constants.ts';

/** Bestseller badge rank: min(10, ceil(score / 5)) (spec section 9). */
export function bestSellerRank(score: number): number {
  return Math.min(10, Math.ceil(score / 5));
}

/** A feature as a listing tag: cut at 12 characters followed by '...' when longer. */
export function featureTag(feature: string): string {
  return feature.length > FEATURE_TAG_MAX_CHARS ? `${feature.slice(0, FEATURE_TAG_MAX_CHARS)}...` : feature;
}

/** The first two features as tags, and how many more there are ('+N') of `total` features. */
export function featureTags(features: readonly string[], total = features.length): { tags: string[]; more: number } {
  return { tags: features.slice(0, 2).map(featureTag), more: Math.max(0, total - 2) };
}

export type StockStatus = { level: 'in' | 'low' | 'out'; text: string };

/** Stock indicator: above 10 'In stock'; 1-10 'Only N left in stock'; 0 or less 'Out of stock'. */
export function stockStatus(stock: number): StockStatus {
  if (stock > LOW_STOCK_THRESHOLD) return { level: 'in', text: 'In stock' };
  if (stock >= 1) return { level: 'low', text: `Only ${stock} left in stock` };
  return { level: 'out', text: 'Out of stock' };
}

type Variant = { isActive: boolean; stock: number };

/** Variants a shopper can pick: active and in stock. */
export function availableVariants<V extends Variant>(variants: readonly V[]): V[] {
  return variants.filter((variant) => variant.isActive && variant.stock > 0);
}

/** The listing button: 'Select Variant' when more than one variant is active and in stock. */
export function needsVariantChoice(variants: readonly Variant[]): boolean {
  return availableVariants(variants).length > 1;
}

/** The variant selected at first: the first active in-stock one, else the first active one. */
export function initialVariantIndex(variants: readonly Variant[]): number {
  const inStock = variants.findIndex((variant) => variant.isActive && variant.stock > 0);
  if (inStock >= 0) return inStock;
  return variants.findIndex((variant) => variant.isActive);
}

/** Flash sale discount percent: rounded (original - sale) / original. */
export function flashSalePercent(originalPrice: number, salePrice: number): number {
  return originalPrice > 0 ? Math.round(((originalPrice - salePrice) / originalPrice) * 100) : 0;
}

/** The countdown of a flash sale: days only when above zero; null once it has ended. */
export function countdown(
  endTime: number,
  now: number,
): { days: number; hours: number; minutes: number; seconds: number } | null {
  const left = Math.floor((endTime - now) / 1000);
  if (left <= 0) return null;
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}

/** Stars shown for a rating: rounded to the nearest half, between 0 and 5. */
export function starsFor(rating: number): number {
  return Math.min(5, Math.max(0, Math.round(rating * 2) / 2));
}

/** The average shown for a rating sum over a number of reviews: two decimals, 0 without reviews. */
export function averageRating(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 100) / 100 : 0;
}

/** The star bucket (1-5) a rating counts in for the breakdown and the star filter. */
export function ratingBucket(rating: number): number {
  return Math.min(5, Math.max(1, Math.round(rating)));
}

/** The start of a text for a listing: its first paragraph, cut at a word to at most `max` characters. */
export function summarize(text: string, max = 200): string {
  const first = text.split(/\n\s*\n/)[0]?.trim() ?? '';
  if (first.length <= max) return first;
  const cut = first.slice(0, max - 1);
  const atWord = cut.slice(0, Math.max(cut.lastIndexOf(' '), Math.floor(max / 2)));
  return `${atWord.replace(/[\s,;:.]+$/, '')}…`;
}
