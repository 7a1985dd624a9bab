import type { Product } from '#common/contracts/catalog.ts';
import { PLACEHOLDER_IMAGE } from '#common/images.ts';
import { dollarsToCents } from '#common/money.ts';

/** The built-in products (spec: keyed by id, prices in dollars), shown when the server cannot answer. */
type FallbackProduct = {
  title: string;
  slug: string;
  description: string;
  price: number;
  salePrice: number;
  aliId: string;
  skuAttr: string;
  images: string[];
  features: string[];
  specifications: Record<string, string>;
};

export const fallbackProducts: Record<string, FallbackProduct> = {
  'desktop-fountain': {
    title: 'Desktop Waterfall Fountain with LED Lighting',
    slug: 'desktop-fountain',
    description:
      'Water slides down a sculpted rock face, gathers in a shallow basin and rises again through a tiny pump, and the whole loop fits on the corner of a desk. A warm white LED lights the falling water after dark.',
    price: 129.98,
    salePrice: 77.99,
    aliId: '1005006384127590',
    skuAttr: '14:200006151#Stone Grey',
    images: [PLACEHOLDER_IMAGE],
    features: [
      'Whisper-quiet submersible pump, under 30 dB',
      'Warm white LED with its own switch',
      'Hand-finished stone-effect polyresin',
      'Adjustable flow from trickle to stream',
    ],
    specifications: {
      Dimensions: '24 × 15 × 30 cm (9.4 × 5.9 × 11.8 in)',
      Power: 'USB 5 V / 1 A, wall adapter included',
      'Water capacity': '1.2 L (41 fl oz)',
    },
  },
  'wireless-charger': {
    title: 'Zen Stone Wireless Charger',
    slug: 'wireless-charger',
    description:
      'A Qi wireless charger shaped like a smooth river stone. Set your phone on it to charge at up to 10 W; a soft light shows it is working.',
    price: 49.99,
    salePrice: 29.99,
    aliId: '1005007215836042',
    skuAttr: '14:771#River Grey',
    images: [PLACEHOLDER_IMAGE],
    features: ['Qi charging up to 10 W', 'Shaped like a river stone', 'USB-C input, cable included'],
    specifications: { Output: '10 W / 7.5 W / 5 W', Input: 'USB-C, 9 V / 2 A' },
  },
};

/** A built-in product in the shape the pages render (cents, one variant, no reviews). */
export function fallbackProduct(slug: string): Product | null {
  const product = fallbackProducts[slug];
  if (!product) return null;
  const price = dollarsToCents(product.price);
  const salePrice = dollarsToCents(product.salePrice);
  const name = product.skuAttr.split('#')[1] ?? 'Standard';
  return {
    id: product.slug,
    slug: product.slug,
    title: product.title,
    description: product.description,
    price,
    salePrice,
    images: product.images,
    features: product.features,
    specifications: product.specifications,
    tags: [],
    categories: [],
    variantLabel: 'Style',
    skuVariants: [
      {
        skuId: product.aliId,
        skuAttr: product.skuAttr,
        name,
        label: name,
        price,
        salePrice,
        // The real stock is unknown; the order is checked when the server is back.
        stock: 100,
        image: product.images[0] ?? null,
        images: product.images,
        isActive: true,
      },
    ],
    skuImagePosition: null,
    stock: 100,
    status: 'active',
    aliId: product.aliId,
    rating: { average: 0, count: 0 },
    createdAt: new Date(0).toISOString(),
  };
}
