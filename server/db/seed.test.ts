import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, test } from 'vitest';
import { createDiskObjectStorage } from '#server/adapters/storage/disk-object-storage.ts';
import type { Database } from '#server/db/client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { testMediaDir } from '#server/testing/test-environment.ts';
import { migrateDatabase } from './migrate.ts';
import * as t from './schema.ts';
import { seedDemoContent } from './seed.ts';

const storage = createDiskObjectStorage(testMediaDir);
const now = new Date('2026-11-21T15:30:00Z');

async function seededDatabase(): Promise<Database> {
  const database = await createTestDatabase({ empty: true });
  await migrateDatabase(database);
  expect(await seedDemoContent({ db: database.db, storage, now })).toBe(true);
  return database;
}

const total = async (database: Database, table: PgTable) => {
  const [row] = await database.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
};

describe('migrations and demo seed on an empty database', () => {
  // Seconds alone; over 20 s on a machine running the browser suites too.
  test('seed a complete demo shop, once', { timeout: 90_000 }, async () => {
    const database = await seededDatabase();
    try {
      const { db } = database;
      expect(await total(database, t.categories)).toBe(7);
      const products = await db.select().from(t.products);
      expect(products.length).toBeGreaterThanOrEqual(24);
      expect(products.every((p) => p.status === 'active')).toBe(true);

      const fountain = products.find((p) => p.slug === 'desktop-fountain');
      expect(fountain).toMatchObject({ price: 12998, salePrice: 7799 });
      const charger = products.find((p) => p.slug === 'wireless-charger');
      expect(charger).toMatchObject({ price: 4999, salePrice: 2999 });
      const fountainVariants = await db
        .select()
        .from(t.skuVariants)
        .where(eq(t.skuVariants.productId, fountain?.id ?? ''));
      expect(fountainVariants.length).toBeGreaterThan(1);

      for (const product of products) {
        expect(product.description.length, product.slug).toBeGreaterThan(200);
        expect(product.features.length, product.slug).toBeGreaterThan(2);
        expect(Object.keys(product.specifications).length, product.slug).toBeGreaterThan(2);
        expect(product.tags.length, product.slug).toBeGreaterThan(2);
        const images = await db.select().from(t.productImages).where(eq(t.productImages.productId, product.id));
        expect(images.length, product.slug).toBeGreaterThanOrEqual(3);
        for (const image of images) {
          expect(await storage.get(image.url.replace('/media/', ''))).not.toBeNull();
        }
      }

      // Every category has products.
      const perCategory = await db
        .select({ categoryId: t.productCategories.categoryId, n: count() })
        .from(t.productCategories)
        .groupBy(t.productCategories.categoryId);
      expect(perCategory).toHaveLength(7);

      expect(await total(database, t.reviews)).toBeGreaterThanOrEqual(150);
      const ratings = new Set((await db.select({ r: t.reviews.rating }).from(t.reviews)).map((row) => row.r));
      expect(ratings.size).toBeGreaterThanOrEqual(5);

      const sales = await db.select().from(t.sales);
      const flash = sales.find((s) => s.isFlashSale);
      expect(flash).toMatchObject({ targetId: fountain?.id, active: true });
      expect(flash?.startDate.getTime()).toBeLessThan(now.getTime());
      expect(flash?.endDate.getTime()).toBeGreaterThan(now.getTime());
      expect(
        sales
          .filter((s) => s.couponCode)
          .map((s) => s.couponCode)
          .sort(),
      ).toEqual(['CALM15', 'WELCOME10']);

      expect(await total(database, t.newsletterSubscribers)).toBeGreaterThanOrEqual(3);

      const orders = await db.select({ createdAt: t.orders.createdAt, total: t.orders.total }).from(t.orders);
      const days = new Set(orders.map((o) => Math.floor((now.getTime() - o.createdAt.getTime()) / 86_400_000)));
      expect(Math.max(...days)).toBeGreaterThanOrEqual(89);
      expect(days.size).toBeGreaterThan(80);
      expect(orders.every((o) => o.createdAt <= now && o.total > 0)).toBe(true);
      const views = await db.select({ createdAt: t.pageViews.createdAt }).from(t.pageViews);
      expect(views.length).toBeGreaterThan(5000);
      expect(views.every((v) => v.createdAt <= new Date(now.getTime() + 86_400_000))).toBe(true);

      // A second start does not seed again.
      expect(await seedDemoContent({ db, storage, now })).toBe(false);
      expect(await total(database, t.products)).toBe(products.length);
    } finally {
      await database.close();
    }
  });

  test('the seed is deterministic: the same data every time', async () => {
    const [a, b] = [await seededDatabase(), await seededDatabase()];
    try {
      const snapshot = async ({ db }: Database) => ({
        products: await db
          .select({ id: t.products.id, slug: t.products.slug, price: t.products.price, stock: t.products.stock })
          .from(t.products)
          .orderBy(t.products.id),
        reviews: await db
          .select({ id: t.reviews.id, rating: t.reviews.rating, createdAt: t.reviews.createdAt })
          .from(t.reviews)
          .orderBy(t.reviews.id),
        orders: await db
          .select({ number: t.orders.orderNumber, total: t.orders.total, createdAt: t.orders.createdAt })
          .from(t.orders)
          .orderBy(t.orders.orderNumber),
        pageViews: await total({ db } as Database, t.pageViews),
      });
      expect(await snapshot(a)).toEqual(await snapshot(b));
    } finally {
      await a.close();
      await b.close();
    }
    // Two whole seeds: about 20 s on a busy two-core machine.
  }, 90_000);
});
