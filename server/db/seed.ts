/**
 * The demo shop: categories, products with images and variants, customers, reviews, 90 days of
 * orders and visits, sales and coupons, newsletter subscribers. Seeded once into an empty
 * database. Everything comes from a fixed random seed, and dates count back from the day of
 * seeding, so every seed holds the same data (shifted to its day).
 */
import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import { dollarsToCents } from '#common/money.ts';
import { type Discount, type PricingLine, priceCart } from '#common/pricing.ts';
import { settingsDefaults } from '#common/settings-defaults.ts';
import { renderProductArt } from '#seed/art/render-art.ts';
import { seedProducts } from '#seed/catalog.ts';
import { seedCategories } from '#seed/categories.ts';
import { firstNames, landingPaths, lastNames, streetNames, usCities } from '#seed/people.ts';
import { createRandom, type Random } from '#seed/random.ts';
import { moderationQueue } from '#seed/review-queue.ts';
import { seedReviews } from '#seed/reviews.ts';
import type { SeedProduct } from '#seed/types.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import { composeSearchText } from '#server/features/catalog/catalog.service.ts';
import { storeProductImage } from '#server/features/catalog/product-images.ts';
import { refreshBestSellers } from '#server/features/marketing/marketing.service.ts';
import type { Db } from './client.ts';
import * as t from './schema.ts';

const SEED = 20_251_121;
const DAY = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 90;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What every step of the seed works with: the transaction, the random source and the clock. */
type SeedContext = {
  tx: Tx;
  random: Random;
  now: Date;
  /** A moment the given number of days (and hours) after midnight UTC of the seed day, counted back. */
  daysAgo: (days: number, hours?: number) => Date;
};

/** Inserts many rows in slices, keeping each statement under PostgreSQL's parameter limit. */
async function insertInBatches<T extends PgTable>(tx: Tx, table: T, rows: PgInsertValue<T>[], size = 500) {
  for (let i = 0; i < rows.length; i += size) await tx.insert(table).values(rows.slice(i, i + size));
}

/** Seeds the demo shop when the database has no categories yet; returns whether it did. */
export async function seedDemoContent({
  db,
  storage,
  now = new Date(),
  log = () => {},
}: {
  db: Db;
  storage: ObjectStorage;
  now?: Date;
  log?: (message: string) => void;
}): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(t.categories);
  if ((existing?.n ?? 0) > 0) return false;

  const started = Date.now();
  const random = createRandom(SEED);
  const anchor = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysAgo = (days: number, hours = 0) => new Date(anchor - days * DAY + hours * 60 * 60 * 1000);

  const images = await renderCatalogImages(storage);
  log(`demo images rendered in ${Date.now() - started} ms`);

  await db.transaction(async (tx) => {
    const ctx: SeedContext = { tx, random, now, daysAgo };
    const categoryIds = await insertCategories(ctx);
    const products = await insertProducts(ctx, categoryIds, images);
    const customers = await insertCustomers(ctx);
    await insertReviews(ctx, products, customers);
    const orderStats = await insertOrders(ctx, products, customers, categoryIds);
    await insertSales(ctx, products, categoryIds, orderStats);
    await insertNewsletter(ctx, customers);
    await insertPageViews(ctx, products, orderStats.sessionsByDay);
    await refreshBestSellers(tx, now);
  });
  log(`demo shop seeded in ${Date.now() - started} ms`);
  return true;
}

type ProductImages = Map<string, { product: ImageRecord[]; variants: Map<string, ImageRecord> }>;
type ImageRecord = { url: string; key: string; width: number; height: number };

/** Renders each product's three illustrations and a picture of each coloured variant. */
async function renderCatalogImages(storage: ObjectStorage): Promise<ProductImages> {
  const result: ProductImages = new Map();
  // Two products at a time: sharp already uses the cores for each image.
  const queue = [...seedProducts];
  async function worker() {
    for (let product = queue.shift(); product; product = queue.shift()) {
      const views = await Promise.all(
        [0, 1, 2].map((view) =>
          storeProductImage(
            storage,
            `products/${product.slug}/${view + 1}`,
            Buffer.from(renderProductArt(product.art, view)),
            { allowSvg: true },
          ),
        ),
      );
      const variants = new Map<string, ImageRecord>();
      for (const variant of product.variants) {
        if (!variant.palette) continue;
        const art = { ...product.art, palette: variant.palette };
        variants.set(
          variant.skuAttr,
          await storeProductImage(
            storage,
            `products/${product.slug}/sku-${variant.skuId}`,
            Buffer.from(renderProductArt(art, 0)),
            { allowSvg: true },
          ),
        );
      }
      result.set(product.slug, { product: views, variants });
    }
  }
  await Promise.all([worker(), worker()]);
  return result;
}

async function insertCategories({ tx, random }: SeedContext) {
  const ids = new Map<string, string>();
  await tx.insert(t.categories).values(
    seedCategories.map((category, position) => {
      const id = random.hexId();
      ids.set(category.name, id);
      return { id, name: category.name, slug: category.slug, position };
    }),
  );
  return ids;
}

type SeededProduct = {
  id: string;
  seed: SeedProduct;
  createdAt: Date;
  image: string;
  variants: {
    skuId: string;
    skuAttr: string;
    name: string;
    price: number;
    salePrice: number | null;
    isActive: boolean;
    stock: number;
    image: string;
  }[];
};

async function insertProducts(
  { tx, random, daysAgo }: SeedContext,
  categoryIds: Map<string, string>,
  images: ProductImages,
): Promise<Map<string, SeededProduct>> {
  const seeded = new Map<string, SeededProduct>();
  for (const product of seedProducts) {
    const id = random.hexId();
    const rendered = images.get(product.slug);
    if (!rendered) throw new Error(`no images rendered for ${product.slug}`);
    const createdAt = daysAgo(product.addedDaysAgo, random.int(8, 18));
    const cents = (dollars: number | undefined) => (dollars === undefined ? null : dollarsToCents(dollars));
    const variants = product.variants.map((variant, position) => {
      const image = rendered.variants.get(variant.skuAttr)?.url ?? (rendered.product[0] as ImageRecord).url;
      return {
        id: random.hexId(),
        productId: id,
        skuId: variant.skuId,
        skuAttr: variant.skuAttr,
        name: variant.name,
        label: variant.label,
        price: dollarsToCents(variant.price),
        salePrice: cents(variant.salePrice),
        stock: variant.stock,
        image,
        images: [image],
        isActive: variant.isActive,
        position,
        createdAt,
      };
    });
    await tx.insert(t.products).values({
      id,
      slug: product.slug,
      title: product.title,
      description: product.description,
      price: dollarsToCents(product.price),
      salePrice: cents(product.salePrice),
      features: product.features,
      specifications: product.specifications,
      tags: product.tags,
      status: 'active',
      stock: variants.filter((v) => v.isActive).reduce((sum, v) => sum + Math.max(0, v.stock), 0),
      aliId: product.aliId,
      aliExpressPrice: dollarsToCents(product.aliExpressPrice),
      variantLabel: product.variantLabel,
      discountCodes: product.discountCodes ?? [],
      searchText: composeSearchText(product),
      createdAt,
      updatedAt: createdAt,
    });
    await tx.insert(t.skuVariants).values(variants);
    await tx.insert(t.productImages).values(
      rendered.product.map((image, position) => ({
        productId: id,
        url: image.url,
        storageKey: image.key,
        alt: `${product.title}, view ${position + 1}`,
        width: image.width,
        height: image.height,
        position,
        source: 'seed' as const,
        createdAt,
      })),
    );
    await tx.insert(t.productCategories).values(
      product.categories.map((name, position) => {
        const categoryId = categoryIds.get(name);
        if (!categoryId) throw new Error(`${product.slug}: unknown category ${name}`);
        return { productId: id, categoryId, position };
      }),
    );
    seeded.set(product.slug, {
      id,
      seed: product,
      createdAt,
      image: (rendered.product[0] as ImageRecord).url,
      variants: variants.map((v) => ({ ...v })),
    });
  }
  return seeded;
}

type Customer = {
  id: string;
  username: string;
  email: string;
  name: string;
  city: (typeof usCities)[number];
  street: string;
};

/** The reviewers plus as many again who only buy. Demo customers cannot sign in (no password). */
async function insertCustomers({ tx, random, daysAgo }: SeedContext) {
  const usernames = [...new Set([...seedReviews.map((r) => r.reviewer), ...moderationQueue.map((r) => r.reviewer)])];
  while (usernames.length < 150) {
    const separator = random.pick(['_', ''] as const);
    const surname = random.pick(lastNames).toLowerCase().slice(0, random.int(1, 5));
    const candidate = `${random.pick(firstNames).toLowerCase()}${separator}${surname}${random.int(1, 99)}`;
    if (!usernames.includes(candidate)) usernames.push(candidate);
  }
  const customers = new Map<string, Customer>();
  const rows = usernames.map((username) => {
    const id = random.hexId();
    const name = `${random.pick(firstNames)} ${random.pick(lastNames)}`;
    const email = `${username.toLowerCase()}@${random.pick(['example.com', 'example.net', 'example.org'] as const)}`;
    customers.set(username, {
      id,
      username,
      email,
      name,
      city: random.pick(usCities),
      street: `${random.int(10, 9899)} ${random.pick(streetNames)}`,
    });
    const joined = daysAgo(random.int(95, 400), random.int(0, 23));
    return { id, username, email, passwordHash: null, role: 'user' as const, createdAt: joined, updatedAt: joined };
  });
  await insertInBatches(tx, t.users, rows);
  return customers;
}

async function insertReviews(
  { tx, random, daysAgo, now }: SeedContext,
  products: Map<string, SeededProduct>,
  customers: Map<string, Customer>,
) {
  const rows = [
    ...seedReviews.map((review) => ({ ...review, status: 'approved' as const, moderation: null })),
    ...moderationQueue.map((review) => ({ ...review, verified: false, helpful: 0 })),
  ].map((review) => {
    const product = products.get(review.product);
    const customer = customers.get(review.reviewer);
    if (!product || !customer)
      throw new Error(`review of ${review.product} by ${review.reviewer}: unknown product or reviewer`);
    let createdAt = daysAgo(review.daysAgo, random.int(7, 22));
    if (createdAt < product.createdAt) createdAt = new Date(product.createdAt.getTime() + DAY);
    if (createdAt > now) createdAt = new Date(now.getTime() - 60_000);
    return {
      id: random.hexId(),
      productId: product.id,
      userId: customer.id,
      customerName: customer.username,
      rating: review.rating,
      title: review.title,
      content: review.content,
      verified: review.verified,
      helpfulCount: review.helpful,
      moderationStatus: review.status,
      aiModerationResult: review.moderation
        ? { flagged: review.moderation.flagged, reasons: [...review.moderation.reasons] }
        : null,
      createdAt,
      updatedAt: createdAt,
    };
  });
  await insertInBatches(tx, t.reviews, rows);
}

type OrderStats = { sessionsByDay: Map<number, string[]>; welcomeUses: number; calmUses: number };

type PlannedOrder = {
  customer: Customer | null;
  guest: { name: string; email: string; city: (typeof usCities)[number]; street: string } | null;
  day: number;
  hour: number;
  lines: { product: SeededProduct; variant: SeededProduct['variants'][number]; quantity: number }[];
};

/** The Welcome Offer sale of insertSales as a coupon: 10% off every line not already on sale. */
const welcomeOffer: Discount = {
  code: 'WELCOME10',
  kind: 'percentage',
  value: 10,
  scope: { type: 'global', targetId: null },
  minimumPurchase: 0,
};

async function insertOrders(
  { tx, random, daysAgo, now }: SeedContext,
  products: Map<string, SeededProduct>,
  customers: Map<string, Customer>,
  categoryIds: Map<string, string>,
): Promise<OrderStats> {
  const catalogue = [...products.values()];
  const weighted = catalogue.flatMap((product) => Array.from({ length: product.seed.popularity }, () => product));
  const customerList = [...customers.values()];
  const pickVariant = (product: SeededProduct) =>
    random.pick(
      product.variants.filter((v) => v.isActive).length ? product.variants.filter((v) => v.isActive) : product.variants,
    );

  const planned: PlannedOrder[] = [];
  // Verified reviewers bought what they reviewed, a week or two before writing.
  for (const review of seedReviews) {
    if (!review.verified) continue;
    const product = products.get(review.product) as SeededProduct;
    const customer = customers.get(review.reviewer) as Customer;
    const productAge = Math.floor((now.getTime() - product.createdAt.getTime()) / DAY);
    const day = Math.min(review.daysAgo + random.int(5, 16), Math.max(review.daysAgo, productAge - 1));
    const lines = [{ product, variant: pickVariant(product), quantity: random.chance(0.85) ? 1 : 2 }];
    if (random.chance(0.25)) {
      const extra = random.pick(weighted);
      if (extra !== product) lines.push({ product: extra, variant: pickVariant(extra), quantity: 1 });
    }
    planned.push({ customer, guest: null, day, hour: random.int(7, 22), lines });
  }
  // Everyday orders: a few a day, more at weekends and more lately.
  for (let day = HISTORY_DAYS - 1; day >= 0; day--) {
    const weekday = new Date(daysAgo(day)).getUTCDay();
    const base = 2 + (HISTORY_DAYS - day) / 45 + (weekday === 0 || weekday === 6 ? 1.5 : 0);
    const orders = Math.max(0, Math.round(base + random.next() * 3 - 1));
    for (let i = 0; i < orders; i++) {
      const lines: PlannedOrder['lines'] = [];
      const itemCount = random.chance(0.7) ? 1 : random.int(2, 3);
      for (let j = 0; j < itemCount; j++) {
        const product = random.pick(weighted);
        if (lines.some((line) => line.product === product)) continue;
        if (product.createdAt > daysAgo(day)) continue;
        lines.push({ product, variant: pickVariant(product), quantity: random.chance(0.88) ? 1 : 2 });
      }
      if (lines.length === 0) continue;
      const isGuest = random.chance(0.35);
      planned.push({
        customer: isGuest ? null : random.pick(customerList),
        guest: isGuest
          ? (() => {
              const first = random.pick(firstNames);
              const last = random.pick(lastNames);
              return {
                name: `${first} ${last}`,
                email: `${first}.${last}${random.int(1, 999)}@example.com`.toLowerCase(),
                city: random.pick(usCities),
                street: `${random.int(10, 9899)} ${random.pick(streetNames)}`,
              };
            })()
          : null,
        day,
        hour: random.int(6, 23),
        lines,
      });
    }
  }
  planned.sort((a, b) => b.day - a.day || a.hour - b.hour);

  const orders: (typeof t.orders.$inferInsert)[] = [];
  const items: (typeof t.orderItems.$inferInsert)[] = [];
  const payments: (typeof t.payments.$inferInsert)[] = [];
  const conversions: (typeof t.conversions.$inferInsert)[] = [];
  const sold = new Map<string, number>();
  const sessionsByDay = new Map<number, string[]>();
  const stats = { welcomeUses: 0, calmUses: 0 };

  planned.forEach((plan, index) => {
    const id = random.hexId();
    const createdAt = daysAgo(plan.day, plan.hour + random.next());
    if (createdAt > now) createdAt.setTime(now.getTime() - random.int(5, 60) * 60_000);
    const person = plan.customer ?? plan.guest;
    if (!person) return;
    // Priced as the checkout prices a cart; a few shoppers entered the welcome code.
    const codes = random.chance(0.12) ? ['WELCOME10'] : [];
    const pricingLines = plan.lines.map(
      (line): PricingLine => ({
        key: `${line.product.id}:${line.variant.skuId}`,
        productId: line.product.id,
        categoryIds: line.product.seed.categories.flatMap((name) => categoryIds.get(name) ?? []),
        skuId: line.variant.skuId,
        title: line.product.seed.title,
        quantity: line.quantity,
        price: line.variant.price,
        salePrice: line.variant.salePrice,
      }),
    );
    const priced = priceCart({
      lines: pricingLines,
      discounts: [welcomeOffer],
      codes,
      settings: settingsDefaults,
      address: { country: 'US', state: person.city.state },
    });
    const { subtotal, discount, tax, processingFee, total } = priced;
    const shipping = priced.shipping ?? 0;
    // A refused code (every line already on sale) is not kept on the order.
    const discountCodes = codes.filter((code) => !priced.refused.some((r) => r.code === code));
    stats.welcomeUses += discountCodes.length;
    const lineTotals = plan.lines.map((line, i) => ({
      ...line,
      unitPrice: (priced.lines[i] as (typeof priced.lines)[number]).unitPrice,
    }));
    const cancelled = random.chance(0.03);
    const status = cancelled
      ? 'cancelled'
      : plan.day >= 14
        ? 'completed'
        : plan.day >= 8
          ? 'delivered'
          : plan.day >= 3
            ? 'shipped'
            : 'processing';
    const address = {
      name: person.name,
      street: person.street,
      city: person.city.city,
      state: person.city.state,
      zipCode: person.city.zip,
      country: 'US',
    };
    const supplierCost = lineTotals.reduce(
      (sum, l) => sum + dollarsToCents(l.product.seed.aliExpressPrice) * l.quantity,
      0,
    );
    orders.push({
      id,
      orderNumber: `SW-${10001 + index}`,
      userId: plan.customer?.id ?? null,
      email: person.email,
      customerName: person.name,
      status,
      subtotal,
      discount,
      shipping,
      tax,
      fee: processingFee,
      total,
      supplierCost,
      shippingAddress: address,
      billingAddress: address,
      discountCodes,
      aliOrderId: cancelled
        ? null
        : `8${String(random.int(10_000_000, 99_999_999))}${String(random.int(1_000_000, 9_999_999))}`,
      aliTrackingNumber:
        cancelled || status === 'processing'
          ? null
          : `LP00${random.int(100_000_000, 999_999_999)}${random.int(10_000, 99_999)}`,
      createdAt,
      updatedAt: createdAt,
    });
    for (const line of lineTotals) {
      items.push({
        orderId: id,
        productId: line.product.id,
        productName: line.product.seed.title,
        skuId: line.variant.skuId,
        skuAttr: line.variant.skuAttr,
        variantName: line.variant.name,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        unitCost: dollarsToCents(line.product.seed.aliExpressPrice),
        image: line.variant.image,
      });
      if (!cancelled) sold.set(line.product.id, (sold.get(line.product.id) ?? 0) + line.quantity);
    }
    payments.push({
      provider: 'local',
      providerPaymentId: `pi_seed_${id}`,
      status: cancelled ? 'canceled' : 'succeeded',
      amount: total,
      breakdown: { subtotal, discount, shipping: priced.shipping, tax, processingFee, total, currency: 'USD' },
      cart: {
        items: lineTotals.map((l) => ({
          productId: l.product.id,
          skuId: l.variant.skuId,
          quantity: l.quantity,
          unitPrice: l.unitPrice,
        })),
        discountCodes,
        email: person.email,
        newsletter: false,
        shipping: address,
        billing: address,
      },
      orderId: id,
      createdAt,
      updatedAt: createdAt,
    });
    if (plan.day < HISTORY_DAYS) {
      const sessionId = random.hexId();
      sessionsByDay.set(plan.day, [...(sessionsByDay.get(plan.day) ?? []), sessionId]);
      conversions.push({ sessionId, userId: plan.customer?.id ?? null, orderId: id, orderValue: total, createdAt });
    }
  });

  await insertInBatches(tx, t.orders, orders, 300);
  await insertInBatches(tx, t.orderItems, items);
  await insertInBatches(tx, t.payments, payments, 300);
  await insertInBatches(tx, t.conversions, conversions);
  for (const [productId, quantity] of sold) {
    await tx.update(t.products).set({ sales: quantity }).where(eq(t.products.id, productId));
  }
  return { sessionsByDay, ...stats };
}

async function insertSales(
  { tx, random, daysAgo }: SeedContext,
  products: Map<string, SeededProduct>,
  categoryIds: Map<string, string>,
  stats: OrderStats,
) {
  const fountain = products.get('desktop-fountain') as SeededProduct;
  await tx.insert(t.sales).values([
    {
      id: random.hexId(),
      name: 'Desktop Fountain Flash Sale',
      description: 'Our best-selling desktop waterfall fountain at its lowest price of the season. This week only.',
      type: 'product',
      targetId: fountain.id,
      discountType: 'fixed_price',
      discountValue: dollarsToCents(fountain.seed.salePrice ?? fountain.seed.price),
      isFlashSale: true,
      startDate: daysAgo(2),
      // Ends at midnight UTC five days after seeding.
      endDate: daysAgo(-6),
      usageCount: 0,
    },
    {
      id: random.hexId(),
      name: 'Welcome Offer',
      description: '10% off your first order of full-price items.',
      type: 'global',
      discountType: 'percentage',
      discountValue: 10,
      couponCode: 'WELCOME10',
      startDate: daysAgo(180),
      endDate: daysAgo(-365),
      usageCount: stats.welcomeUses,
      usageLimit: 1000,
    },
    {
      id: random.hexId(),
      name: 'Calm Corner Fountains',
      description: '15% off fountains on orders of $75 or more.',
      type: 'category',
      targetId: categoryIds.get('Fountains') ?? null,
      discountType: 'percentage',
      discountValue: 15,
      couponCode: 'CALM15',
      startDate: daysAgo(10),
      endDate: daysAgo(-30),
      usageCount: 0,
      usageLimit: 200,
      minimumPurchase: 7500,
    },
    {
      id: random.hexId(),
      name: 'Spring Reset Sale',
      description: '20% off everything for one week.',
      type: 'global',
      discountType: 'percentage',
      discountValue: 20,
      startDate: daysAgo(80),
      endDate: daysAgo(73),
      usageCount: 41,
      active: false,
    },
  ]);
}

async function insertNewsletter({ tx, random, daysAgo }: SeedContext, customers: Map<string, Customer>) {
  const chosen = random.shuffle([...customers.values()]).slice(0, 14);
  const lastIssue = daysAgo(20, 15);
  await tx.insert(t.newsletterSubscribers).values(
    chosen.map((customer, index) => {
      const createdAt = daysAgo(random.int(25, 160), random.int(0, 23));
      const isActive = index % 7 !== 3;
      return {
        id: random.hexId(),
        email: customer.email,
        isActive,
        source: random.pick(['checkout', 'checkout', 'footer'] as const),
        unsubscribeToken: `${random.hexId()}${random.hexId()}`,
        lastEmailSent: isActive ? lastIssue : null,
        createdAt,
      };
    }),
  );
  const recipients = chosen.filter((_, index) => index % 7 !== 3).length;
  await tx.insert(t.newsletterIssues).values({
    id: random.hexId(),
    subject: 'Slow mornings, new lanterns',
    content:
      'Hello from Stillwater! This month we added rice paper lanterns and a sunrise alarm light for gentler mornings. Subscribers get first look at our autumn fountain restock.',
    recipientCount: recipients,
    // Sent in full: the tab's progress shows it as the latest send.
    sentCount: recipients,
    startedAt: lastIssue,
    finishedAt: lastIssue,
    createdAt: lastIssue,
  });
}

/** Visits for the dashboard: sessions a day, each a few pages; the buyers' sessions end at /success. */
async function insertPageViews(
  { tx, random, daysAgo }: SeedContext,
  products: Map<string, SeededProduct>,
  buyerSessions: Map<number, string[]>,
) {
  const slugs = [...products.keys()];
  const landing: string[] = landingPaths.flatMap((entry) => Array.from({ length: entry.weight }, () => entry.path));
  const rows: (typeof t.pageViews.$inferInsert)[] = [];
  for (let day = HISTORY_DAYS - 1; day >= 0; day--) {
    const buyers = buyerSessions.get(day) ?? [];
    const browsers = 45 + Math.round((HISTORY_DAYS - day) / 2) + random.int(0, 30);
    const sessions = [
      ...buyers.map((id) => ({ id, buyer: true })),
      ...Array.from({ length: browsers }, () => ({ id: random.hexId(), buyer: false })),
    ];
    for (const session of sessions) {
      let at = daysAgo(day, random.int(6, 22) + random.next()).getTime();
      const cookiesAccepted = random.chance(0.62);
      // One visitor per session, hashed as the shop hashes real ones (no random draw: the rest of the seed stays as it was).
      const visitorHash = createHash('sha256').update(session.id).digest('hex').slice(0, 32);
      const paths = [random.pick(landing)];
      const more = session.buyer ? random.int(2, 5) : random.chance(0.45) ? 0 : random.int(1, 4);
      for (let i = 0; i < more; i++)
        paths.push(random.chance(0.6) ? `/product/${random.pick(slugs)}` : random.pick(landing));
      if (session.buyer) paths.push('/cart', '/success');
      for (const path of paths) {
        rows.push({
          path,
          sessionId: session.id,
          cookiesAccepted,
          referrer: null,
          visitorHash,
          createdAt: new Date(at),
        });
        at += random.int(20, 240) * 1000;
      }
    }
  }
  await insertInBatches(tx, t.pageViews, rows, 1000);
}
