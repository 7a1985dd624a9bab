/**
 * Shapes of the demo content kept in seed/. Prices are in dollars here (as a shop owner
 * writes them) and converted to integer cents when seeded.
 */

export type SeedCategory = { name: string; slug: string };

/** How a product's illustrations are drawn: the object and its colours. */
export type SeedArt = {
  /** Which object the illustration shows; see seed/art/. */
  kind: ArtKind;
  /** Main colours of the object, as CSS hex colours, darkest last. */
  palette: [string, string, string];
  /** Background tint, as a CSS hex colour. */
  backdrop: string;
};

export type ArtKind =
  | 'desktop-fountain'
  | 'wireless-charger'
  | 'bamboo-fountain'
  | 'lotus-fountain'
  | 'rock-cascade-fountain'
  | 'zen-garden'
  | 'oil-diffuser'
  | 'essential-oils'
  | 'candle-trio'
  | 'salt-lamp'
  | 'moon-lamp'
  | 'sunrise-light'
  | 'paper-lantern'
  | 'eye-pillow'
  | 'acupressure-mat'
  | 'meditation-cushion'
  | 'singing-bowl'
  | 'succulent-planters'
  | 'driftwood-hanging'
  | 'stone-bookends'
  | 'backflow-incense'
  | 'sleep-mist'
  | 'gift-box'
  | 'sand-timer'
  | 'cloud-light'
  | 'sand-art-frame';

export type SeedVariant = {
  /** Marketplace SKU id (digits). */
  skuId: string;
  /** Marketplace SKU attribute string, e.g. '14:200006151#Stone Grey'. Unique within the product. */
  skuAttr: string;
  /** Shown to shoppers, e.g. 'Stone Grey'. */
  name: string;
  /** Short label, e.g. 'Grey'. */
  label: string;
  price: number;
  salePrice?: number;
  stock: number;
  isActive: boolean;
  /** Colours used to draw this variant's own image; omitted: the product's art is used. */
  palette?: [string, string, string];
};

export type SeedProduct = {
  slug: string;
  title: string;
  /** Two to four paragraphs separated by blank lines. */
  description: string;
  price: number;
  salePrice?: number;
  /** Category names, from seed/categories. The first is the main one. */
  categories: string[];
  features: string[];
  specifications: Record<string, string>;
  tags: string[];
  /** Marketplace product id (digits). */
  aliId: string;
  /** What the marketplace charges us per unit, in dollars. */
  aliExpressPrice: number;
  /** The label of the variant selector, e.g. 'Style' or 'Color'. */
  variantLabel: string;
  variants: SeedVariant[];
  /** Product-level coupon codes, e.g. { code: 'STONE5', value: '5%' } or { code: 'CALM3', value: '3.00' }. */
  discountCodes?: { code: string; value: string }[];
  art: SeedArt;
  /** Relative popularity in the demo orders (1 = rare, 10 = best seller). */
  popularity: number;
  /** Days before the seed date that the product was added. */
  addedDaysAgo: number;
};

export type SeedReview = {
  /** The product's slug. */
  product: string;
  /** The reviewer's username: 3-30 letters, digits, '-' or '_', and none of the words admin, administrator, root, system, test, demo, temp. */
  reviewer: string;
  /** 1.0 to 5.0 in steps of 0.1 (most reviews use whole stars). */
  rating: number;
  title: string;
  /** At most 1000 characters. */
  content: string;
  /** Days before the seed date the review was written (0-90). */
  daysAgo: number;
  /** Whether the reviewer bought the product (a matching paid order is seeded). */
  verified: boolean;
  /** How many shoppers marked it helpful. */
  helpful: number;
};
