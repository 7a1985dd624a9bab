import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ChannelOrder, ChannelOrderStatus, SocialShop } from '#server/adapters/social-shop/social-shop.ts';
import type { Db } from '#server/db/client.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import { returnStock, takeSoldStock } from '#server/features/catalog/stock.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import { PAID_STATUS } from '#server/features/orders/order-status.ts';
import { orderItems, orderNumbers, orders } from '#server/features/orders/orders.tables.ts';
import { type Connection, type Grants, loggable } from './grants.ts';
import { namesVariant, parseSellerSku } from './listing.ts';
import { socialShopConnections } from './social-shop.tables.ts';

/** Statuses of a channel order that is paid and to be shipped (or already further on). */
const PAID_CHANNEL_STATUSES: readonly ChannelOrderStatus[] = [
  'AWAITING_SHIPMENT',
  'PARTIALLY_SHIPPING',
  'AWAITING_COLLECTION',
  'IN_TRANSIT',
  'DELIVERED',
  'COMPLETED',
];
/** The order search looks back this far past where it stopped, for updates the channel recorded late. */
const SEARCH_OVERLAP_MS = 10 * 60_000;
/** A new shop's orders are searched from this long before it was connected. */
const FIRST_SEARCH_BACK_MS = 24 * 60 * 60_000;

export type ImportOutcome = 'created' | 'exists' | 'not_paid' | 'cancelled';

/**
 * Channel orders in (issue 14): the webhook's and the periodic search's orders become our
 * orders exactly once (the insert keys on the channel's order id), marked with their channel.
 * The order, its lines and the stock it takes are one transaction, as the checkout's are; then
 * it is announced (order_created) and handed to the same dropship fulfilment.
 */
export function createChannelOrders({
  db,
  socialShop,
  grants,
  events,
  fulfil,
  now = () => new Date(),
  log = () => {},
}: {
  db: Db;
  socialShop: SocialShop;
  grants: Grants;
  events: DomainEvents;
  fulfil: (orderId: string) => Promise<void>;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}) {
  async function importOrder(order: ChannelOrder): Promise<ImportOutcome> {
    if (order.status === 'CANCELLED') return (await cancelImported(order)) ? 'cancelled' : 'not_paid';
    // Unpaid or held for a check: not ours to ship yet (a later status brings it again).
    if (!PAID_CHANNEL_STATUSES.includes(order.status)) return 'not_paid';
    const known = await knownLines(order);
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(orders)
        .values({
          orderNumber: sql`'SW-' || nextval(${orderNumbers.seqName}::regclass)`,
          email: order.buyerEmail,
          customerName: order.recipient.name || 'TikTok Shop buyer',
          status: PAID_STATUS,
          subtotal: order.payment.subtotal,
          discount: Math.max(
            0,
            order.payment.subtotal + order.payment.shipping + order.payment.tax - order.payment.total,
          ),
          shipping: order.payment.shipping,
          tax: order.payment.tax,
          total: order.payment.total,
          currency: order.payment.currency,
          paymentMethod: 'TikTok Shop',
          supplierCost: order.lines.reduce(
            (sum, line) => sum + (known.get(line.sellerSku)?.unitCost ?? 0) * line.quantity,
            0,
          ),
          shippingAddress: address(order),
          billingAddress: address(order),
          channel: 'tiktok-shop',
          externalId: order.id,
          createdAt: order.createdAt,
        })
        .onConflictDoNothing({ target: [orders.channel, orders.externalId], where: sql`external_id IS NOT NULL` })
        .returning({ id: orders.id, orderNumber: orders.orderNumber });
      if (!row) return null;
      await tx.insert(orderItems).values(
        order.lines.map((line) => {
          const ours = known.get(line.sellerSku);
          return {
            orderId: row.id,
            productId: ours?.productId ?? null,
            productName: ours?.title ?? line.productName,
            skuId: ours?.skuId ?? null,
            skuAttr: ours?.skuAttr ?? null,
            variantName: ours?.variantName ?? null,
            quantity: line.quantity,
            unitPrice: line.salePrice,
            unitCost: ours?.unitCost ?? 0,
            image: ours?.image ?? null,
          };
        }),
      );
      for (const line of order.lines) {
        const ours = known.get(line.sellerSku);
        if (!ours) continue;
        const { oversold } = await takeSoldStock(tx, {
          productId: ours.productId,
          skuId: ours.skuId,
          quantity: line.quantity,
        });
        if (oversold) log(`TikTok Shop order ${order.id} sold more of ${ours.title} than the shop had in stock`);
      }
      return row;
    });
    if (!created) return 'exists';
    const unknown = order.lines.filter((line) => !known.has(line.sellerSku));
    if (unknown.length > 0) {
      log(
        `TikTok Shop order ${order.id} (${created.orderNumber}) has lines of no product of ours: ${unknown.map((l) => l.sellerSku).join(', ')}`,
      );
    }
    events.publish({ type: 'order_created', data: { collection: 'orders', id: created.id, channel: 'tiktok-shop' } });
    // The order is kept whatever happens here; a failure is in the log and the sweep retries.
    await fulfil(created.id).catch((error: unknown) => log('handing a TikTok Shop order to fulfilment failed', error));
    return 'created';
  }

  /**
   * The channel cancelled an order we imported: while it is not shipped yet, ours is cancelled
   * and its stock given back, in one transaction (a supplier order already placed is the
   * person's to cancel: said in the log). Answers whether this call cancelled it.
   */
  async function cancelImported(order: ChannelOrder): Promise<boolean> {
    const cancelled = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(orders)
        .set({ status: 'cancelled', updatedAt: now() })
        .where(and(eq(orders.channel, 'tiktok-shop'), eq(orders.externalId, order.id), eq(orders.status, PAID_STATUS)))
        .returning({ id: orders.id, orderNumber: orders.orderNumber, supplierOrder: orders.aliOrderId });
      if (!row) return null;
      const lines = await tx
        .select({ productId: orderItems.productId, skuId: orderItems.skuId, quantity: orderItems.quantity })
        .from(orderItems)
        .where(eq(orderItems.orderId, row.id));
      for (const line of lines) {
        if (line.productId)
          await returnStock(tx, { productId: line.productId, skuId: line.skuId, quantity: line.quantity });
      }
      return row;
    });
    if (!cancelled) return false;
    if (cancelled.supplierOrder) {
      log(
        `TikTok Shop cancelled ${cancelled.orderNumber}, whose supplier order ${cancelled.supplierOrder} was placed: cancel it on the marketplace`,
      );
    }
    events.publish({ type: 'order_updated', data: { collection: 'orders', id: cancelled.id, status: 'cancelled' } });
    return true;
  }

  /** Our product and variant of each line, by the seller SKU it was listed under. */
  async function knownLines(order: ChannelOrder) {
    const parsed = order.lines.flatMap((line) => {
      const ids = parseSellerSku(line.sellerSku);
      return ids ? [{ sellerSku: line.sellerSku, ...ids }] : [];
    });
    const known = new Map<
      string,
      {
        productId: string;
        skuId: string | null;
        skuAttr: string | null;
        variantName: string | null;
        title: string;
        unitCost: number;
        image: string | null;
      }
    >();
    if (parsed.length === 0) return known;
    const rows = await db
      .select({
        id: products.id,
        title: products.title,
        cost: products.aliExpressPrice,
        image: sql<string | null>`(SELECT url FROM product_images i WHERE i.product_id = ${products.id}
          ORDER BY i.position LIMIT 1)`,
      })
      .from(products)
      .where(
        inArray(
          products.id,
          parsed.map((p) => p.productId),
        ),
      );
    const variants = await db
      .select({
        productId: skuVariants.productId,
        skuId: skuVariants.skuId,
        skuAttr: skuVariants.skuAttr,
        name: skuVariants.name,
        image: skuVariants.image,
      })
      .from(skuVariants)
      .where(
        inArray(
          skuVariants.productId,
          parsed.map((p) => p.productId),
        ),
      );
    for (const line of parsed) {
      const product = rows.find((r) => r.id === line.productId);
      if (!product) continue;
      const namesOne = line.skuId !== null || line.skuDigest !== null;
      const variant = namesOne
        ? variants.find((v) => v.productId === line.productId && namesVariant(line, v.skuId))
        : undefined;
      if (namesOne && !variant) continue;
      known.set(line.sellerSku, {
        productId: product.id,
        skuId: variant?.skuId ?? null,
        skuAttr: variant?.skuAttr ?? null,
        variantName: variant?.name ?? null,
        title: product.title,
        unitCost: product.cost ?? 0,
        image: variant?.image ?? product.image,
      });
    }
    return known;
  }

  /** The webhook's order: read from the channel (the notification carries only its id and status), then imported. */
  async function importById(shopId: string, orderId: string): Promise<ImportOutcome | 'unknown_shop'> {
    const shop = await grants.connectionByShopId(shopId);
    if (!shop) return 'unknown_shop';
    const [order] = await grants.withShop(shop, (access) => socialShop.getOrders(access, [orderId]));
    if (!order) return 'not_paid';
    return importOrder(order);
  }

  /** The periodic search: every shop's orders updated since the last search, imported. */
  async function searchNewOrders(): Promise<number> {
    let created = 0;
    for (const shop of await grants.readyShops()) {
      try {
        created += await searchShop(shop);
      } catch (error) {
        log(`searching the orders of TikTok Shop ${shop.shopId} failed`, loggable(error));
      }
    }
    return created;
  }

  async function searchShop(shop: Connection): Promise<number> {
    const until = now();
    const from = shop.ordersSearchedUntil
      ? new Date(shop.ordersSearchedUntil.getTime() - SEARCH_OVERLAP_MS)
      : new Date(shop.createdAt.getTime() - FIRST_SEARCH_BACK_MS);
    let created = 0;
    let pageToken: string | null = null;
    do {
      const page = await grants.withShop(shop, (access) =>
        socialShop.searchOrders(access, { updatedFrom: from, updatedTo: until }, pageToken),
      );
      for (const order of page.orders) if ((await importOrder(order)) === 'created') created++;
      pageToken = page.nextPageToken;
    } while (pageToken);
    await db
      .update(socialShopConnections)
      .set({ ordersSearchedUntil: until })
      .where(sql`${socialShopConnections.id} = ${shop.id}`);
    return created;
  }

  return { importOrder, importById, searchNewOrders };
}

export type ChannelOrders = ReturnType<typeof createChannelOrders>;

function address(order: ChannelOrder) {
  const r = order.recipient;
  return {
    name: r.name || 'TikTok Shop buyer',
    street: r.street,
    ...(r.line2 ? { line2: r.line2 } : {}),
    city: r.city,
    state: r.state,
    zipCode: r.zipCode,
    country: r.country,
  };
}
