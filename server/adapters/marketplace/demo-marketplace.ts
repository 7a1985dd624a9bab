import { createHash } from 'node:crypto';
import { renderProductArt } from '#seed/art/render-art.ts';
import { seedProducts } from '#seed/catalog.ts';
import type { SeedArt } from '#seed/types.ts';
import {
  ImageDownloadError,
  type Marketplace,
  MarketplaceError,
  type MarketplaceProduct,
  type MarketplaceVariant,
  type SupplierOrderState,
  type SupplierShipment,
} from './marketplace.ts';

/*
 * The marketplace the shop uses when no AliExpress credentials are configured: offline, in
 * memory, deterministic. Its catalogue is the seed's products (same marketplace ids, SKUs,
 * prices, stock and cost) plus a few that are not in the shop yet, so a product can be imported
 * from an id in the back office. Its pictures are drawn by the seed's art and served by the shop
 * itself (/api/demo-marketplace/images/…), so importing one needs no network. Supplier orders
 * are simulated without state: the supplier order id encodes when the order was placed, and the
 * order's progress (processing → shipped with a tracking number → delivered) follows from the
 * time elapsed since.
 */

/** Where the shop serves the demo marketplace's pictures (demo-marketplace.routes.ts). */
export const DEMO_IMAGE_PATH = '/api/demo-marketplace/images';
/** Product pictures per demo product: the art's hero, detail and lifestyle views. */
export const DEMO_IMAGE_VIEWS = 3;
/** The pictures' width and height, in pixels. */
const IMAGE_SIZE = 800;
/** Rendered pictures kept in memory (each a few hundred kB). */
const IMAGE_CACHE_MAX = 48;
/** How long each simulated fulfilment step takes by default: processing, then shipped, then delivered. */
export const DEMO_FULFILMENT_STEP_MS = 5 * 60 * 1000;

type DemoVariant = {
  skuId: string;
  skuAttr: string;
  name: string;
  label: string;
  /** Dollars, as the seed writes them. */
  price: number;
  salePrice?: number;
  stock: number;
  palette?: [string, string, string];
};

type DemoListing = {
  aliId: string;
  title: string;
  /** Paragraphs separated by blank lines. */
  description: string;
  /** What one unit costs the shop, in dollars. */
  cost: number;
  variantLabel: string;
  variants: DemoVariant[];
  specifications: Record<string, string>;
  art: SeedArt;
};

/** Calm home and desk goods the marketplace sells that the demo shop does not list yet. */
const importable: DemoListing[] = [
  {
    aliId: '1005008124503961',
    title: 'Brass and Glass Desk Hourglass',
    description:
      'A slim hourglass in a brushed brass frame, filled with fine white sand that runs for a steady, silent count. Turn it over at the start of a focused stretch of work and let it keep time without a screen.\n\n' +
      'The glass is hand-blown borosilicate and the frame is solid brass with felt pads underneath, so it sits quietly on a desk or a bookshelf.',
    cost: 9.4,
    variantLabel: 'Duration',
    variants: [
      {
        skuId: '12000046201583301',
        skuAttr: '200009174:201449835#15 minutes',
        name: '15 minutes',
        label: '15 min',
        price: 29.99,
        stock: 120,
        palette: ['#f4eee2', '#d9c08a', '#7a6233'],
      },
      {
        skuId: '12000046201583302',
        skuAttr: '200009174:201449836#30 minutes',
        name: '30 minutes',
        label: '30 min',
        price: 34.99,
        stock: 85,
        palette: ['#eaf1f4', '#b7c9d3', '#4f6470'],
      },
      {
        skuId: '12000046201583303',
        skuAttr: '200009174:201449837#60 minutes',
        name: '60 minutes',
        label: '60 min',
        price: 39.99,
        salePrice: 34.99,
        stock: 40,
        palette: ['#f1e9ee', '#cfb2c2', '#6d4c5e'],
      },
    ],
    specifications: {
      Material: 'Borosilicate glass, solid brass frame',
      Dimensions: '7 × 7 × 18 cm (2.8 × 2.8 × 7.1 in)',
      Weight: '320 g (11.3 oz)',
    },
    art: { kind: 'sand-timer', palette: ['#f4eee2', '#d9c08a', '#7a6233'], backdrop: '#f3efe6' },
  },
  {
    aliId: '1005008124503962',
    title: 'Concrete Desk Planter with Bamboo Tray',
    description:
      'A small cast-concrete pot with a drainage hole and a bamboo saucer, sized for a succulent, a cactus or a sprig of herbs beside the keyboard.\n\n' +
      'Each pot is poured and sanded by hand, so the surface keeps a few soft air pockets and no two are quite alike. Sealed inside so water does not seep through.',
    cost: 5.2,
    variantLabel: 'Style',
    variants: [
      {
        skuId: '12000046201583311',
        skuAttr: '',
        name: 'Standard',
        label: 'Standard',
        price: 19.99,
        stock: 260,
      },
    ],
    specifications: {
      Material: 'Cement with a sealed interior, bamboo tray',
      Dimensions: '9 × 9 × 8 cm (3.5 × 3.5 × 3.1 in)',
      'Plant included': 'No',
    },
    art: { kind: 'succulent-planters', palette: ['#e4e2de', '#a9a59e', '#5d5a55'], backdrop: '#eef1ec' },
  },
  {
    aliId: '1005008124503963',
    title: 'Beeswax Pillar Candle Set',
    description:
      'Three pillar candles poured from pure beeswax with cotton wicks, in three heights for a tray, a windowsill or a dinner table. Beeswax burns slowly and cleanly with a faint honey scent.\n\n' +
      'Trim the wick to 5 mm before each lighting and let the first burn reach the edges so the candle does not tunnel.',
    cost: 11.8,
    variantLabel: 'Colour',
    variants: [
      {
        skuId: '12000046201583321',
        skuAttr: '14:200004889#Natural Honey',
        name: 'Natural Honey',
        label: 'Honey',
        price: 36,
        stock: 74,
        palette: ['#f7e3a8', '#e0b25a', '#8c6424'],
      },
      {
        skuId: '12000046201583322',
        skuAttr: '14:200004890#Ivory',
        name: 'Ivory',
        label: 'Ivory',
        price: 36,
        stock: 58,
        palette: ['#fbf6ea', '#e8dcc0', '#9c8f72'],
      },
      {
        skuId: '12000046201583323',
        skuAttr: '14:200004891#Sage',
        name: 'Sage',
        label: 'Sage',
        price: 38,
        stock: 0,
        palette: ['#e3eadb', '#aebf9c', '#5e6d4f'],
      },
    ],
    specifications: {
      Material: '100% beeswax, cotton wick',
      Heights: '7.5, 10 and 15 cm (3, 4 and 6 in)',
      'Burn time': 'About 30, 40 and 60 hours',
    },
    art: { kind: 'candle-trio', palette: ['#f7e3a8', '#e0b25a', '#8c6424'], backdrop: '#f6f0e4' },
  },
  {
    aliId: '1005008124503964',
    title: 'Selenite Crystal Night Lamp',
    description:
      'A rough-cut selenite column on a walnut base, lit from below by a dimmable warm LED. Selenite carries the light along its fibres and glows a soft white, bright enough for a hallway and gentle enough for a bedside.\n\n' +
      'The base has an inline dimmer on its cable. Dust with a dry cloth: selenite does not like water.',
    cost: 14.6,
    variantLabel: 'Size',
    variants: [
      {
        skuId: '12000046201583331',
        skuAttr: '5:361386#Small (20 cm)',
        name: 'Small (20 cm)',
        label: 'S',
        price: 42,
        stock: 33,
        palette: ['#f7f5f1', '#ddd7cc', '#8f877a'],
      },
      {
        skuId: '12000046201583332',
        skuAttr: '5:361385#Large (30 cm)',
        name: 'Large (30 cm)',
        label: 'L',
        price: 58,
        salePrice: 49,
        stock: 12,
        palette: ['#fbf8f2', '#e6ddcc', '#9a8d74'],
      },
    ],
    specifications: {
      Material: 'Natural selenite, walnut base',
      Light: 'Warm white LED, 2700 K, dimmable',
      Power: 'USB 5 V, 1.5 m cable with inline dimmer',
    },
    art: { kind: 'salt-lamp', palette: ['#f7f5f1', '#ddd7cc', '#8f877a'], backdrop: '#eef0f3' },
  },
];

/** The demo catalogue: the seed's products as the marketplace sells them, then the importable ones. */
export const demoListings: readonly DemoListing[] = [
  ...seedProducts.map((product) => ({
    aliId: product.aliId,
    title: product.title,
    description: product.description,
    cost: product.aliExpressPrice,
    variantLabel: product.variantLabel,
    variants: product.variants,
    specifications: product.specifications,
    art: product.art,
  })),
  ...importable,
];

/** The marketplace ids of the demo products that the seeded shop does not list. */
export const demoImportableIds: readonly string[] = importable.map((listing) => listing.aliId);

const byId = new Map(demoListings.map((listing) => [listing.aliId, listing]));

const cents = (dollars: number) => Math.round(dollars * 100);

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A picture's address on the shop (relative, so it is always the shop's own origin). */
export function demoImageUrl(aliId: string, file: string): string {
  return `${DEMO_IMAGE_PATH}/${aliId}/${file}`;
}

function toProduct(listing: DemoListing): MarketplaceProduct {
  const variants: MarketplaceVariant[] = listing.variants.map((variant) => ({
    skuId: variant.skuId,
    skuAttr: variant.skuAttr,
    name: variant.name,
    label: variant.label,
    price: cents(variant.price),
    salePrice: variant.salePrice === undefined ? null : cents(variant.salePrice),
    stock: variant.stock,
    image: variant.palette ? demoImageUrl(listing.aliId, `sku-${variant.skuId}.png`) : null,
  }));
  return {
    productId: listing.aliId,
    title: listing.title,
    descriptionHtml: listing.description
      .split(/\n{2,}/)
      .map((paragraph) => `<p>${escapeHtml(paragraph.trim())}</p>`)
      .join(''),
    imageUrls: Array.from({ length: DEMO_IMAGE_VIEWS }, (_, view) => demoImageUrl(listing.aliId, `${view + 1}.png`)),
    variants,
    variantLabel: listing.variantLabel || 'Style',
    cost: cents(listing.cost),
    stock: variants.reduce((sum, variant) => sum + variant.stock, 0),
    specifications: { ...listing.specifications },
    isOnSale: true,
  };
}

/** The art of one demo picture ('2.png', 'sku-12000037162048815.png'); null when there is no such picture. */
function pictureArt(aliId: string, file: string): { art: SeedArt; view: number } | null {
  const listing = byId.get(aliId);
  if (!listing) return null;
  const view = /^([1-9])\.png$/.exec(file);
  if (view) {
    const n = Number(view[1]);
    return n <= DEMO_IMAGE_VIEWS ? { art: listing.art, view: n - 1 } : null;
  }
  const sku = /^sku-(\d{1,20})\.png$/.exec(file);
  const variant = sku ? listing.variants.find((v) => v.skuId === sku[1]) : undefined;
  return variant?.palette ? { art: { ...listing.art, palette: variant.palette }, view: 0 } : null;
}

/** The simulated order's statuses, one per step, with AliExpress's own words for them. */
const fulfilmentSteps = [
  ['processing', 'WAIT_SELLER_SEND_GOODS'],
  ['shipped', 'WAIT_BUYER_ACCEPT_GOODS'],
  ['delivered', 'FUND_PROCESSING'],
] as const;

/** Our order's supplier order id: '9', the placement time in epoch milliseconds (13 digits), 5 digits of the order id's hash. */
function supplierOrderIdFor(orderId: string, placedAt: number): string {
  const digest = createHash('sha256').update(orderId).digest().readUInt32BE(0) % 100_000;
  return `9${String(placedAt).padStart(13, '0')}${String(digest).padStart(5, '0')}`;
}

function placedAtOf(supplierOrderId: string): number | null {
  const match = /^9(\d{13})\d{5}$/.exec(supplierOrderId);
  return match ? Number(match[1]) : null;
}

export type DemoMarketplaceOptions = {
  /** How long each fulfilment step takes (processing, then shipped, then delivered). */
  stepMs?: number;
  now?: () => number;
  /**
   * The shop's own origin (PUBLIC_URL's), so that a picture's absolute address on the shop is
   * accepted by downloadImage as its relative one is.
   */
  shopOrigin?: string;
};

export type DemoMarketplace = Marketplace & {
  name: 'demo';
  /** A demo picture as PNG ('1.png' to '3.png', 'sku-{skuId}.png'); null when there is no such picture. */
  picture(aliId: string, file: string): Promise<Buffer | null>;
};

export function createDemoMarketplace({
  stepMs = DEMO_FULFILMENT_STEP_MS,
  now = Date.now,
  shopOrigin,
}: DemoMarketplaceOptions = {}): DemoMarketplace {
  // Rendered pictures by path, oldest first (a Map keeps insertion order); in-flight ones shared.
  const pictures = new Map<string, Promise<Buffer>>();
  // Placements of this process without a placedAt, so a retry answers the same order.
  const placements = new Map<string, number>();

  function listing(productId: string): DemoListing {
    if (!/^\d{1,20}$/.test(productId)) {
      throw new MarketplaceError('invalid_request', 'Invalid marketplace request: the id must be digits');
    }
    const found = byId.get(productId);
    if (!found) throw new MarketplaceError('not_found', `The demo marketplace has no product ${productId}`);
    return found;
  }

  async function picture(aliId: string, file: string): Promise<Buffer | null> {
    const found = pictureArt(aliId, file);
    if (!found) return null;
    const key = `${aliId}/${file}`;
    let rendered = pictures.get(key);
    if (!rendered) {
      // sharp is loaded by the first picture asked for, not when the server starts.
      rendered = import('sharp').then(({ default: sharp }) =>
        sharp(Buffer.from(renderProductArt(found.art, found.view, IMAGE_SIZE)))
          .png({ compressionLevel: 6 })
          .toBuffer(),
      );
      pictures.set(key, rendered);
      rendered.catch(() => pictures.delete(key));
      if (pictures.size > IMAGE_CACHE_MAX) {
        const oldest = pictures.keys().next().value;
        if (oldest !== undefined) pictures.delete(oldest);
      }
    }
    return rendered;
  }

  function order(supplierOrderId: string) {
    const placedAt = placedAtOf(supplierOrderId);
    if (placedAt === null) {
      throw new MarketplaceError('not_found', `The demo marketplace has no order ${supplierOrderId.slice(0, 40)}`);
    }
    const elapsed = now() - placedAt;
    const step = elapsed < stepMs ? 0 : elapsed < 2 * stepMs ? 1 : 2;
    return { placedAt, step, trackingNumber: `DEMO${supplierOrderId.slice(-12)}` };
  }

  return {
    name: 'demo',

    async getProduct(productId) {
      return toProduct(listing(productId));
    },

    async placeOrder(request) {
      const orderId = typeof request.orderId === 'string' ? request.orderId.trim() : '';
      if (!orderId || orderId.length > 64 || /\p{Cc}/u.test(orderId)) {
        throw new MarketplaceError('invalid_request', 'Invalid marketplace request: orderId');
      }
      if (!Array.isArray(request.lines) || request.lines.length === 0) {
        throw new MarketplaceError('invalid_request', 'Invalid marketplace request: an order needs lines');
      }
      for (const line of request.lines) {
        const found = byId.get(line.productId);
        if (!found) {
          throw new MarketplaceError(
            'rejected',
            `The demo marketplace has no product ${String(line.productId).slice(0, 40)}`,
          );
        }
        if (!found.variants.some((variant) => variant.skuAttr === line.skuAttr)) {
          throw new MarketplaceError(
            'rejected',
            `Product ${found.aliId} has no SKU ${String(line.skuAttr).slice(0, 80)}`,
          );
        }
        if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > 999) {
          throw new MarketplaceError('invalid_request', 'Invalid marketplace request: a quantity must be 1 to 999');
        }
      }
      const given = request.placedAt?.getTime();
      const placedAt = given !== undefined && Number.isFinite(given) ? given : (placements.get(orderId) ?? now());
      placements.set(orderId, placedAt);
      return { supplierOrderIds: [supplierOrderIdFor(orderId, placedAt)] };
    },

    async getOrder(supplierOrderId): Promise<SupplierOrderState> {
      const { step, trackingNumber } = order(supplierOrderId);
      const [status, supplierStatus] = fulfilmentSteps[step] ?? fulfilmentSteps[0];
      return {
        supplierOrderId,
        status,
        supplierStatus,
        trackingNumbers: step === 0 ? [] : [{ trackingNumber, carrier: 'Cainiao Standard' }],
      };
    },

    async getTracking(supplierOrderId): Promise<SupplierShipment[]> {
      const { placedAt, step, trackingNumber } = order(supplierOrderId);
      if (step === 0) return [];
      const events = [
        { at: new Date(placedAt + stepMs), description: 'Shipped: the parcel was handed to the carrier' },
        { at: new Date(placedAt + stepMs + stepMs / 2), description: 'In transit: arrived at the destination country' },
        { at: new Date(placedAt + 2 * stepMs), description: 'Delivered' },
      ].filter((event) => event.at.getTime() <= Math.max(now(), placedAt + stepMs));
      return [{ trackingNumber, carrier: 'Cainiao Standard', events: events.reverse() }];
    },

    async downloadImage(imageUrl) {
      let url: URL;
      try {
        url = new URL(imageUrl, 'https://demo-marketplace.invalid');
      } catch {
        throw new ImageDownloadError('invalid_url', 'The URL is not valid');
      }
      const relative = url.origin === 'https://demo-marketplace.invalid' && imageUrl.startsWith('/');
      const ownOrigin = shopOrigin !== undefined && url.origin === new URL(shopOrigin).origin;
      if (!relative && !ownOrigin) {
        throw new ImageDownloadError('host_not_allowed', `${url.hostname} is not one of the allowed image hosts`);
      }
      const match = new RegExp(`^${DEMO_IMAGE_PATH}/(\\d{1,20})/([a-z0-9-]{1,40}\\.png)$`).exec(url.pathname);
      const bytes = match?.[1] && match[2] ? await picture(match[1], match[2]) : null;
      if (!bytes) throw new ImageDownloadError('upstream_status', 'The demo marketplace has no such picture');
      return bytes;
    },

    picture,
  };
}
