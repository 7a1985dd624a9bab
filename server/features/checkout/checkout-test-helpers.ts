import { and, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';

/** What the checkout's API tests share: the demo shop's products to buy, and the intent's answer. */

export type Intent = {
  id: string;
  clientSecret: string;
  breakdown: Record<string, number | null>;
  refusedCodes: { code: string; message: string }[];
  lines: { key: string; unitPrice: number }[];
};

/** A complete US shipping address (California's tax rate). */
export const home = {
  name: 'Ada Calm',
  street: '1 Quiet Lane',
  line2: '',
  city: 'Sacramento',
  state: 'CA',
  zipCode: '95814',
  country: 'US',
};

/** A product with no variants (or a single active one, chosen implicitly) and plenty of stock. */
export async function simpleProduct(db: Db) {
  const rows = await db.select().from(products).where(eq(products.status, 'active'));
  const withVariants = new Set((await db.select({ id: skuVariants.productId }).from(skuVariants)).map((v) => v.id));
  const product = rows.find((p) => !withVariants.has(p.id) && p.stock > 20);
  if (product) return product;
  for (const p of rows) {
    const own = await db.select().from(skuVariants).where(eq(skuVariants.productId, p.id));
    const active = own.filter((v) => v.isActive);
    if (active.length === 1 && (active[0]?.stock ?? 0) > 20 && p.stock > 20) return p;
  }
  throw new Error('the seed has no product to buy simply');
}

/** An active product with an active variant, and that variant. */
export async function variantProduct(db: Db) {
  const [row] = await db
    .select({ product: products, variant: skuVariants })
    .from(skuVariants)
    .innerJoin(products, eq(products.id, skuVariants.productId))
    .where(and(eq(products.status, 'active'), eq(skuVariants.isActive, true)))
    .limit(1);
  if (!row) throw new Error('the seed has no variants');
  return row;
}
