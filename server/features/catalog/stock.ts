import { and, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client.ts';
import { products, skuVariants } from './catalog.tables.ts';

/** Units of a product (and of one of its SKUs) that an order takes or gives back. */
export type StockLine = { productId: string; skuId: string | null; quantity: number };

/**
 * Takes an order line's units from its product (counting them as sold) and from its SKU, by
 * conditional updates inside the order's transaction: neither goes below zero, and two orders at
 * once cannot both take the last unit. Answers the product's title, or `short` when the product
 * or its SKU has fewer units than the line (the caller undoes the transaction).
 */
export async function takeStock(tx: Tx, line: StockLine): Promise<{ title: string } | 'short'> {
  const [taken] = await tx
    .update(products)
    .set({ stock: sql`${products.stock} - ${line.quantity}`, sales: sql`${products.sales} + ${line.quantity}` })
    .where(and(eq(products.id, line.productId), gte(products.stock, line.quantity)))
    .returning({ title: products.title });
  if (!taken) return 'short';
  if (line.skuId) {
    const [variant] = await tx
      .update(skuVariants)
      .set({ stock: sql`${skuVariants.stock} - ${line.quantity}` })
      .where(
        and(
          eq(skuVariants.productId, line.productId),
          eq(skuVariants.skuId, line.skuId),
          gte(skuVariants.stock, line.quantity),
        ),
      )
      .returning({ id: skuVariants.id });
    if (!variant) return 'short';
  }
  return taken;
}

/**
 * Takes a line sold elsewhere (a channel's order, already paid there): what is left is taken and
 * the stock stops at zero. Answers whether the shop had fewer units than were sold.
 */
export async function takeSoldStock(tx: Tx, line: StockLine): Promise<{ oversold: boolean }> {
  const [before] = await tx
    .select({ stock: products.stock })
    .from(products)
    .where(eq(products.id, line.productId))
    .for('update');
  if (!before) return { oversold: true };
  await tx
    .update(products)
    .set({
      stock: sql`greatest(${products.stock} - ${line.quantity}, 0)`,
      sales: sql`${products.sales} + ${line.quantity}`,
    })
    .where(eq(products.id, line.productId));
  let oversold = before.stock < line.quantity;
  if (line.skuId) {
    const [variant] = await tx
      .select({ stock: skuVariants.stock })
      .from(skuVariants)
      .where(and(eq(skuVariants.productId, line.productId), eq(skuVariants.skuId, line.skuId)))
      .for('update');
    if (variant) {
      oversold ||= variant.stock < line.quantity;
      await tx
        .update(skuVariants)
        .set({ stock: sql`greatest(${skuVariants.stock} - ${line.quantity}, 0)` })
        .where(and(eq(skuVariants.productId, line.productId), eq(skuVariants.skuId, line.skuId)));
    }
  }
  return { oversold };
}

/** Gives an undone order line's units back to its product and SKU. */
export async function returnStock(tx: Tx, line: StockLine): Promise<void> {
  await tx
    .update(products)
    .set({ stock: sql`${products.stock} + ${line.quantity}`, sales: sql`${products.sales} - ${line.quantity}` })
    .where(eq(products.id, line.productId));
  if (line.skuId) {
    await tx
      .update(skuVariants)
      .set({ stock: sql`${skuVariants.stock} + ${line.quantity}` })
      .where(and(eq(skuVariants.productId, line.productId), eq(skuVariants.skuId, line.skuId)));
  }
}
