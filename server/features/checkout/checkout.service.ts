import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { isAddressComplete, MINIMUM_CARD_PAYMENT } from '#common/checkout-rules.ts';
import type { SessionUser } from '#common/contracts/accounts.ts';
import type { CheckoutBreakdown, CheckoutItem, DraftAddress, syncReasons } from '#common/contracts/checkout.ts';
import { effectivePrice, formatCents } from '#common/money.ts';
import { paymentErrorMessage } from '#common/payment-errors.ts';
import {
  type CartPrice,
  cartTotals,
  type Discount,
  discountedPrice,
  isInScope,
  normalizeCode,
  type PricedLine,
  type PricingLine,
  priceCart,
  productCodeDiscount,
  refusalMessage,
} from '#common/pricing.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import type { LocalTestProcessor, TestCardInput } from '#server/adapters/payments/local-test-processor.ts';
import {
  isClientSecretOf,
  type PaymentEvent,
  type PaymentProcessor,
  PaymentProviderError,
  type ProviderPayment,
  paymentIdFromClientSecret,
} from '#server/adapters/payments/payment-processor.ts';
import type { CrashPoint } from '#server/crash/crash-points.ts';
import { type Db, executeRows, type Tx } from '#server/db/client.ts';
import { newId } from '#server/db/ids.ts';
import { productCategories, products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import { returnStock, takeStock } from '#server/features/catalog/stock.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import type { RunningSales } from '#server/features/marketing/marketing.service.ts';
import { sales } from '#server/features/marketing/marketing.tables.ts';
import { movableTo, PAID_STATUS, paidStatuses } from '#server/features/orders/order-status.ts';
import { orderItems, orderNumbers, orders } from '#server/features/orders/orders.tables.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { AppError, invalid, notFound } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { type PricedCart, paymentEvents, payments } from './checkout.tables.ts';

/** How long a payment must sit authorised or capturing before the recovery job takes it over: far longer than a completion takes. */
export const RECOVER_AFTER_MS = 60_000;
/** Payments one recovery run takes on (the next minute's run takes the rest). */
const RECOVERY_BATCH = 50;

type OrderAnswer = { reference: string; orderNumber: string; total: number };
/** A discount with the sale it comes from (none for a product's own code). */
type SaleDiscount = Discount & { saleId?: string };
type PaymentRow = typeof payments.$inferSelect;

export type CheckoutRequest = {
  items: CheckoutItem[];
  email: string;
  shipping?: DraftAddress | null | undefined;
  billing?: DraftAddress | null | undefined;
  newsletter: boolean;
  discountCodes: string[];
  reason?: (typeof syncReasons)[number] | undefined;
  paymentIntentId?: string | null | undefined;
};

/** A cart line priced from the database, with what the order keeps of it. */
type CartLine = PricingLine & {
  skuAttr: string | null;
  variantName: string | null;
  image: string | null;
  unitCost: number;
  /** Units on hand now: the variant's, else the product's. */
  stock: number;
  /** The product's own discount codes. */
  ownCodes: { code: string; value: string }[];
};

type VariantRow = {
  skuId: string;
  skuAttr: string;
  name: string;
  price: number;
  salePrice: number | null;
  stock: number;
  image: string | null;
  isActive: boolean;
};

const ORDER_WINDOW_MS = 24 * 60 * 60 * 1000;
/** An address-only sync reuses lines priced within this time; older ones are priced again. */
const REPRICE_AFTER_MS = 15 * 60 * 1000;

const orderLimitMessage = (max: number) =>
  `You have placed the most orders allowed in a day (${max}). Please contact support.`;

const fingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

/** The details of the shopper a sync may change without pricing the cart again. */
const detailsWrittenBy: Partial<Record<NonNullable<CheckoutRequest['reason']>, (keyof ShopperDetails)[]>> = {
  shipping_update: ['shipping', 'billing'],
  billing_update: ['billing'],
  email_update: ['email'],
};

type ShopperDetails = ReturnType<typeof detailsOf>;

/** What the payment keeps of the shopper, as the request gives it. */
function detailsOf(request: CheckoutRequest, user: SessionUser | null) {
  return {
    email: request.email.trim(),
    newsletter: request.newsletter,
    shipping: request.shipping ?? null,
    billing: request.billing ?? null,
    userId: user?.id ?? null,
  };
}

const normalizedCodes = (codes: string[]) => [...new Set(codes.map(normalizeCode).filter(Boolean))];

/** Of the items and codes a cart was priced for: equal fingerprints, equal prices. */
const itemsFingerprint = (items: CheckoutItem[], codes: string[]) =>
  fingerprint({ items: items.map(({ id, skuId, quantity }) => [id, skuId ?? null, quantity]), codes });

/** What shipping and tax depend on: the country and state of a complete address. */
const pricingAddress = (shipping: DraftAddress | null | undefined) =>
  isAddressComplete(shipping) ? { country: shipping.country, state: shipping.state } : null;

/** A line of the request that cannot be bought: 400 naming the line. */
const badLine = (index: number, field: string, message: string) => invalid(`items.${index}.${field}`, message);

/** Paying failed at the card: the spec's message for its code (402). */
class CardError extends AppError {
  constructor(code: string, providerMessage: string) {
    super(402, code, paymentErrorMessage(code, providerMessage));
  }
}

export function createCheckoutService({
  db,
  processor,
  settings,
  runningSales,
  events,
  jobs,
  mailer,
  publicUrl,
  subscribeToNewsletter,
  fulfil = async () => {},
  onPaymentOutcome,
  crash = () => {},
  log,
}: {
  db: Db;
  processor: PaymentProcessor;
  settings: SettingsService;
  runningSales: RunningSales;
  events: DomainEvents;
  jobs: Jobs;
  mailer: Mailer;
  publicUrl: string;
  /** The newsletter's own sign-up (double opt-in when the shop asks for it). */
  subscribeToNewsletter: (email: string) => Promise<unknown>;
  /** Hands a paid order to dropship fulfilment (its supplier order is placed in the background). */
  fulfil?: (orderId: string) => Promise<void>;
  /** How each completion ended, with the refusal's code (the payment metrics). */
  onPaymentOutcome?: (outcome: 'order_created' | 'refused' | 'capture_failed', reason?: string) => void;
  /** The crash suites' fault injection (CRASH_AT); nothing otherwise. */
  crash?: (point: CrashPoint) => void;
  log: (message: string, error?: unknown) => void;
}) {
  /**
   * Prices the request's items from the database (client prices are never read): the products
   * with their variants and categories in one query. The outer product is named in full: Drizzle
   * leaves a one-table query's columns unqualified, which the subqueries would read as their own.
   */
  async function cartLines(items: CheckoutItem[]): Promise<CartLine[]> {
    const keys = [...new Set(items.map((item) => item.id))];
    const found = await db
      .select({
        // Only what pricing and the order need: the description and the rest stay in the table.
        product: {
          id: products.id,
          slug: products.slug,
          title: products.title,
          price: products.price,
          salePrice: products.salePrice,
          stock: products.stock,
          aliExpressPrice: products.aliExpressPrice,
          discountCodes: products.discountCodes,
        },
        variants: sql<VariantRow[]>`coalesce((
          SELECT json_agg(json_build_object('skuId', v.sku_id, 'skuAttr', v.sku_attr, 'name', v.name,
            'price', v.price, 'salePrice', v.sale_price, 'stock', v.stock, 'image', v.image, 'isActive', v.is_active))
          FROM ${skuVariants} v WHERE v.product_id = "products"."id"), '[]'::json)`,
        categoryIds: sql<string[]>`coalesce((
          SELECT json_agg(pc.category_id) FROM ${productCategories} pc WHERE pc.product_id = "products"."id"), '[]'::json)`,
      })
      .from(products)
      .where(and(eq(products.status, 'active'), or(inArray(products.id, keys), inArray(products.slug, keys))));
    const seen = new Set<string>();
    return items.map((item, index) => {
      const row = found.find(({ product: p }) => p.id === item.id || p.slug === item.id);
      if (!row) throw badLine(index, 'id', `Product "${item.id}" is not for sale`);
      const { product, variants: own } = row;
      const active = own.filter((v) => v.isActive);
      let variant = item.skuId ? own.find((v) => v.skuId === item.skuId) : undefined;
      if (item.skuId && !variant?.isActive) {
        throw badLine(index, 'skuId', `This option of ${product.title} is not available`);
      }
      // With a single active variant, that variant is used implicitly (spec 4).
      if (!variant && active.length === 1) variant = active[0];
      if (!variant && own.length > 0) throw badLine(index, 'skuId', `Choose an option of ${product.title}`);
      const key = `${product.id}:${variant?.skuId ?? ''}`;
      if (seen.has(key)) throw badLine(index, 'id', `${product.title} is in the cart twice`);
      seen.add(key);
      const stock = variant ? Math.min(variant.stock, product.stock) : product.stock;
      if (item.quantity > stock) {
        throw badLine(
          index,
          'quantity',
          stock > 0 ? `Only ${stock} of ${product.title} left in stock` : `${product.title} is out of stock`,
        );
      }
      return {
        key,
        productId: product.id,
        categoryIds: row.categoryIds,
        skuId: variant?.skuId ?? null,
        skuAttr: variant?.skuAttr ?? null,
        variantName: variant?.name ?? null,
        title: product.title,
        quantity: item.quantity,
        price: variant?.price ?? product.price,
        salePrice: variant ? variant.salePrice : product.salePrice,
        image: variant?.image ?? null,
        unitCost: product.aliExpressPrice ?? 0,
        stock,
        ownCodes: product.discountCodes,
      };
    });
  }

  /**
   * The discounts that may apply to these lines: running sales (automatic, or by coupon when its
   * code was entered, under its usage limit) and the products' own codes that were entered.
   */
  async function discountsFor(lines: CartLine[], codes: string[], now: Date): Promise<SaleDiscount[]> {
    const rows = (await runningSales.get()).filter(
      (sale) =>
        sale.startDate <= now &&
        now < sale.endDate &&
        (sale.usageLimit === null || sale.usageCount < sale.usageLimit) &&
        (sale.couponCode === null || codes.includes(sale.couponCode)),
    );
    const fromSales = rows.map(
      (sale): SaleDiscount => ({
        saleId: sale.id,
        code: sale.couponCode,
        kind: sale.discountType,
        value: sale.discountValue,
        scope: { type: sale.type, targetId: sale.targetId },
        minimumPurchase: sale.minimumPurchase,
      }),
    );
    const seen = new Set<string>();
    const fromProducts = lines.flatMap((line) => {
      if (seen.has(line.productId)) return [];
      seen.add(line.productId);
      return line.ownCodes
        .filter((entry) => codes.includes(normalizeCode(entry.code)))
        .map((entry) => productCodeDiscount(line.productId, entry))
        .filter((discount): discount is Discount => discount !== null);
    });
    return [...fromSales, ...fromProducts];
  }

  /**
   * The sales that priced the cart, for the order to keep: each coupon sale whose code lowered a
   * line, and each running sale that gave a line its sale price (the one pricing chose: in scope,
   * its minimum met, its price the line's).
   */
  function salesUsed(lines: CartLine[], discounts: SaleDiscount[], priced: PricedLine[]): string[] {
    const beforeSales = lines.reduce(
      (sum, line) => sum + effectivePrice(line.price, line.salePrice) * line.quantity,
      0,
    );
    const used = new Set<string>();
    lines.forEach((line, index) => {
      const result = priced[index];
      if (!result) return;
      const byCode = result.appliedCode ? discounts.find((d) => d.saleId && d.code === result.appliedCode) : undefined;
      if (byCode?.saleId) used.add(byCode.saleId);
      if (result.originalUnitPrice >= effectivePrice(line.price, line.salePrice)) return;
      const running = discounts.find(
        (d) =>
          d.saleId &&
          d.code === null &&
          d.minimumPurchase <= beforeSales &&
          isInScope(d, line) &&
          discountedPrice(d, line.price) === result.originalUnitPrice,
      );
      if (running?.saleId) used.add(running.saleId);
    });
    return [...used];
  }

  function breakdownOf(priced: Omit<CartPrice, 'lines' | 'refused'>): CheckoutBreakdown {
    return {
      subtotal: priced.subtotal,
      discount: priced.discount,
      shipping: priced.shipping,
      tax: priced.tax,
      processingFee: priced.processingFee,
      fee: priced.processingFee,
      total: priced.total,
      currency: 'USD',
    };
  }

  /**
   * The paid orders of one shopper (the account, else the email) in the last 24 hours, as a SQL
   * count: of given values, or of a stored cart's (SQL expressions, the account possibly null).
   */
  function recentPaidOrders(userId: SQL | string | null, email: SQL | string) {
    const sameEmail = sql`lower(${orders.email}) = lower(${typeof email === 'string' ? email.trim() : email})`;
    const who =
      userId === null
        ? sameEmail
        : typeof userId === 'string'
          ? eq(orders.userId, userId)
          : sql`CASE WHEN ${userId} IS NOT NULL THEN ${orders.userId} = ${userId} ELSE ${sameEmail} END`;
    const since = new Date(Date.now() - ORDER_WINDOW_MS);
    return sql<number>`(SELECT count(*)::int FROM ${orders} WHERE ${and(
      who,
      inArray(orders.status, [...paidStatuses]),
      gte(orders.createdAt, since),
    )})`;
  }

  /** maxOrdersPerUser: whether one shopper has placed that many paid orders in 24 hours. */
  async function overOrderLimit(userId: string | null, email: string, maxOrdersPerUser: number) {
    const [row] = await db.select({ n: recentPaidOrders(userId, email) }).from(sql`(SELECT 1) AS one`);
    return (row?.n ?? 0) >= maxOrdersPerUser;
  }

  async function assertUnderOrderLimit(userId: string | null, email: string) {
    const { maxOrdersPerUser } = await settings.get();
    if (await overOrderLimit(userId, email, maxOrdersPerUser)) {
      throw new AppError(429, 'order_limit', orderLimitMessage(maxOrdersPerUser));
    }
  }

  /**
   * Prices the cart and creates its payment, or updates the one it has (the same payment for
   * every sync: subtotal or codes, shipping, billing, email).
   */
  async function createOrUpdatePaymentIntent(request: CheckoutRequest, user: SessionUser | null) {
    const quick = await syncDetails(request, user);
    if (quick) return quick;
    const existing = request.paymentIntentId ? await findPayment(request.paymentIntentId) : null;
    const open = existing?.status === 'requires_payment_method' ? existing : null;
    const { cart, priced } = await pricedCart(request, user, open);
    assertPayableByCard(priced.total);
    // Checked when the email is first given or changes, not again on every address change.
    if (open && cart.email && cart.email !== open.cart.email) await assertUnderOrderLimit(user?.id ?? null, cart.email);
    const breakdown = breakdownOf(priced);
    const input = {
      amount: priced.total,
      email: cart.email || null,
      metadata: { metaVersion: '2', shop: 'stillwater' },
    };
    let payment = open
      ? await updateOpenPayment(open.providerPaymentId, {
          ...input,
          idempotencyKey: syncKey(open.providerPaymentId, cart, priced.total, request.reason),
        })
      : null;
    if (payment && open) {
      await db
        .update(payments)
        .set({ amount: priced.total, breakdown: stored(breakdown), cart, updatedAt: new Date() })
        .where(eq(payments.id, open.id));
    } else {
      payment = await processor.create({ ...input, idempotencyKey: `pi-create:${randomUUID()}` });
      await recordPayment(payment, priced.total, breakdown, cart, user);
    }
    return {
      id: payment.id,
      clientSecret: payment.clientSecret,
      breakdown,
      lines: priced.lines,
      refusedCodes: priced.refused.map(({ code, product }) => ({ code, message: refusalMessage(code, product) })),
    };
  }

  /** Updates an open payment at the provider; null when it was paid, cancelled or is gone meanwhile. */
  function updateOpenPayment(providerPaymentId: string, input: Parameters<PaymentProcessor['update']>[1]) {
    return processor.update(providerPaymentId, input).catch((error: unknown) => {
      if (error instanceof PaymentProviderError && (error.kind === 'state' || error.kind === 'not_found')) return null;
      throw error;
    });
  }

  function assertPayableByCard(total: number) {
    if (total < MINIMUM_CARD_PAYMENT) {
      throw invalid('items', `The order total must be at least ${formatCents(MINIMUM_CARD_PAYMENT)} to pay by card`);
    }
  }

  const syncKey = (paymentId: string, cart: PricedCart, amount: number, reason: string | undefined) =>
    `pi-sync:${paymentId}:${fingerprint({ cart, amount })}:${reason ?? 'subtotal_or_codes'}`;

  /**
   * Records a new payment with its priced cart, in the same statement as the daily order limit is
   * checked (when an email is known): a shopper over the limit gets no payment, and the one just
   * made at the provider is voided.
   */
  async function recordPayment(
    payment: ProviderPayment,
    amount: number,
    breakdown: CheckoutBreakdown,
    cart: PricedCart,
    user: SessionUser | null,
  ) {
    const { maxOrdersPerUser } = await settings.get();
    const underLimit = cart.email
      ? sql`${recentPaidOrders(user?.id ?? null, cart.email)} < ${maxOrdersPerUser}`
      : sql`true`;
    const rows = await executeRows<{ id: string }>(
      db,
      sql`
      INSERT INTO ${payments} (id, provider, provider_payment_id, amount, breakdown, cart)
      SELECT ${newId()}, ${processor.name}, ${payment.id}, ${amount}::int, ${JSON.stringify(stored(breakdown))}::jsonb,
        ${JSON.stringify(cart)}::jsonb
      WHERE ${underLimit}
      RETURNING id`,
    );
    if (rows.length > 0) return;
    await processor.cancel(payment.id, `cancel:${payment.id}`).catch((error: unknown) => {
      log('cancelling a payment failed', error);
    });
    throw new AppError(429, 'order_limit', orderLimitMessage(maxOrdersPerUser));
  }

  /**
   * The shipping, billing and email syncs, each in one conditional update: it writes the details its
   * reason names (a shipping sync also the billing address, which follows it by default) on condition
   * that nothing else of the cart changed since it was priced (items, codes, the other details) and
   * that the payment is open; an email sync also checks the daily order limit there. The priced lines
   * are reused and only shipping, tax and fee computed again. Anything else: null, and the sync takes
   * the full path, which prices the cart from the database.
   */
  async function syncDetails(request: CheckoutRequest, user: SessionUser | null) {
    const written = request.reason ? detailsWrittenBy[request.reason] : undefined;
    if (!written || !request.paymentIntentId) return null;
    const details = detailsOf(request, user);
    const codes = normalizedCodes(request.discountCodes);
    const unchanged = (Object.keys(details) as (keyof typeof details)[])
      .filter((key) => !written.includes(key))
      .map((key) => sql`${payments.cart} -> ${key} = ${JSON.stringify(details[key])}::jsonb`);
    const patch = Object.fromEntries(written.map((key) => [key, details[key]]));
    const { maxOrdersPerUser } = await settings.get();
    const underLimit =
      request.reason === 'email_update' && details.email
        ? sql`${recentPaidOrders(details.userId, details.email)} < ${maxOrdersPerUser}`
        : undefined;
    const [row] = await db
      .update(payments)
      .set({ cart: sql`${payments.cart} || ${JSON.stringify(patch)}::jsonb`, updatedAt: new Date() })
      .where(
        and(
          eq(payments.provider, processor.name),
          eq(payments.providerPaymentId, request.paymentIntentId),
          eq(payments.status, 'requires_payment_method'),
          gt(payments.updatedAt, new Date(Date.now() - REPRICE_AFTER_MS)),
          sql`${payments.cart} -> 'pricing' ->> 'fingerprint' = ${itemsFingerprint(request.items, codes)}`,
          ...unchanged,
          underLimit,
        ),
      )
      .returning();
    const pricing = row?.cart.pricing;
    if (!row || !pricing) return null;
    const totals = cartTotals(row.breakdown, await settings.get(), pricingAddress(details.shipping));
    const breakdown = breakdownOf(totals);
    const kept = stored(breakdown);
    if ((Object.keys(kept) as (keyof typeof kept)[]).some((key) => kept[key] !== row.breakdown[key])) {
      await db.update(payments).set({ amount: totals.total, breakdown: kept }).where(eq(payments.id, row.id));
    }
    // The row now holds the new details with their amounts; the provider keeps the old amount, so this
    // payment cannot complete until a sync brings the total back over the minimum.
    assertPayableByCard(totals.total);
    // After our row: should the provider refuse, the amounts differ and the payment cannot complete.
    const payment = await updateOpenPayment(row.providerPaymentId, {
      amount: totals.total,
      email: details.email || null,
      metadata: { metaVersion: '2', shop: 'stillwater' },
      idempotencyKey: syncKey(row.providerPaymentId, row.cart, totals.total, request.reason),
    });
    if (!payment) return null;
    return {
      id: payment.id,
      clientSecret: payment.clientSecret,
      breakdown,
      lines: pricing.lines,
      refusedCodes: pricing.refused.map(({ code, product }) => ({ code, message: refusalMessage(code, product) })),
    };
  }

  /**
   * The cart priced for this request. A sync that changes only an address (or the email, or the
   * newsletter box) reuses the lines priced a moment ago for the same items and codes, and only
   * computes shipping, tax and fee again; anything else is priced from the database.
   */
  async function pricedCart(request: CheckoutRequest, user: SessionUser | null, open: PaymentRow | null) {
    const codes = normalizedCodes(request.discountCodes);
    const key = itemsFingerprint(request.items, codes);
    const address = pricingAddress(request.shipping);
    const current = await settings.get();
    const base = detailsOf(request, user);
    const recent = open && Date.now() - open.updatedAt.getTime() < REPRICE_AFTER_MS;
    if (recent && open.cart.pricing?.fingerprint === key) {
      const { pricing } = open.cart;
      const totals = cartTotals(open.breakdown, current, address);
      return {
        cart: { ...open.cart, ...base },
        priced: { ...totals, lines: pricing.lines, refused: pricing.refused },
      };
    }
    const lines = await cartLines(request.items);
    const discounts = await discountsFor(lines, codes, new Date());
    const priced = priceCart({
      lines,
      discounts,
      codes,
      settings: current,
      address,
    });
    const byKey = new Map(priced.lines.map((line) => [line.key, line]));
    const answered = priced.lines.map(({ key: lineKey, unitPrice, originalUnitPrice, lineTotal, appliedCode }) => ({
      key: lineKey,
      unitPrice,
      originalUnitPrice,
      lineTotal,
      appliedCode,
    }));
    const cart: PricedCart = {
      items: lines.map((line) => ({
        productId: line.productId,
        skuId: line.skuId,
        quantity: line.quantity,
        unitPrice: byKey.get(line.key)?.unitPrice ?? line.price,
        title: line.title,
        skuAttr: line.skuAttr,
        variantName: line.variantName,
        image: line.image,
        unitCost: line.unitCost,
      })),
      discountCodes: codes.filter((code) => !priced.refused.some((refused) => refused.code === code)),
      saleIds: salesUsed(lines, discounts, priced.lines),
      ...base,
      pricing: { fingerprint: key, lines: answered, refused: priced.refused },
    };
    return { cart, priced: { ...priced, lines: answered } };
  }

  /** The breakdown as the payments table keeps it (without the fee's second name). */
  function stored({ fee: _fee, ...breakdown }: CheckoutBreakdown) {
    return breakdown;
  }

  async function findPayment(providerPaymentId: string): Promise<PaymentRow | null> {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, processor.name), eq(payments.providerPaymentId, providerPaymentId)));
    return row ?? null;
  }

  /** The breakdown of the payment the client secret belongs to. */
  async function retrievePaymentIntent(clientSecret: string) {
    const id = paymentIdFromClientSecret(clientSecret);
    const row = id ? await findPayment(id) : null;
    const payment = row ? await processor.retrieve(row.providerPaymentId).catch(() => null) : null;
    if (!row || !payment || !isClientSecretOf(payment, clientSecret)) throw notFound('Payment not found');
    return { breakdown: { ...row.breakdown, fee: row.breakdown.processingFee } };
  }

  /** The built-in processor's card form (Stripe.js confirms with Stripe itself). */
  async function confirmTestCard(clientSecret: string, card: TestCardInput) {
    if (processor.name !== 'local') throw notFound('Card payments go through Stripe in this shop');
    try {
      const payment = await (processor as LocalTestProcessor).confirmCard(clientSecret, card);
      if (payment.failure) throw new CardError(payment.failure.code, payment.failure.message);
      if (payment.status === 'requires_capture') await markAuthorized(payment.id);
      return { status: payment.status };
    } catch (error) {
      if (error instanceof PaymentProviderError) {
        if (error.kind === 'card') throw new CardError(error.failureCode, error.message);
        if (error.kind === 'not_found') throw notFound('Payment not found');
        throw new AppError(409, error.code, error.message);
      }
      throw error;
    }
  }

  /**
   * Makes the order of an authorised payment, exactly once: the stock of every line is taken by a
   * conditional update (none goes below zero), the order, its lines, the coupons' usage and the
   * payment's link to the order are written in one transaction, and only then is the payment
   * captured. A line short of stock cancels the authorisation: nothing is charged. The browser's
   * confirmation and the provider's webhook may both call this, at the same time: one order.
   */
  async function completePayment(providerPaymentId: string) {
    const payment = await processor.retrieve(providerPaymentId).catch((error: unknown) => {
      if (error instanceof PaymentProviderError && error.kind === 'not_found') throw notFound('Payment not found');
      throw error;
    });
    if (payment.status === 'requires_capture' || payment.status === 'succeeded') await markAuthorized(payment.id);
    // Read before the transaction: on PGlite a read through `db` inside it would wait for it forever.
    const { maxOrdersPerUser } = await settings.get();
    const outcome = await db
      .transaction(async (tx) => {
        // One completion at a time per payment: a second one waits here, then finds the order.
        // With the shopper's paid orders of the day: several payments prepared at once must not get
        // round the daily limit.
        const [locked] = await tx
          .select({
            row: payments,
            recentOrders: recentPaidOrders(sql`${payments.cart} ->> 'userId'`, sql`${payments.cart} ->> 'email'`),
          })
          .from(payments)
          .where(and(eq(payments.provider, processor.name), eq(payments.providerPaymentId, providerPaymentId)))
          .for('update');
        if (!locked) throw notFound('Payment not found');
        const { row } = locked;
        if (row.orderId) return { created: false as const, orderId: row.orderId };
        // Refused earlier (by the webhook, say): the same answer again.
        if (row.status === 'canceled' && row.failureCode) {
          throw new AppError(
            row.failureCode === 'order_limit' ? 429 : 409,
            row.failureCode,
            row.failureMessage ?? 'Nothing was charged.',
          );
        }
        if (payment.status !== 'requires_capture' && payment.status !== 'succeeded') {
          throw new AppError(409, 'payment_not_authorized', 'The payment has not been authorised yet');
        }
        if (locked.recentOrders >= maxOrdersPerUser) {
          throw new Refused(row, 429, 'order_limit', orderLimitMessage(maxOrdersPerUser));
        }
        if (payment.amount !== row.amount) {
          throw new Refused(
            row,
            409,
            'amount_mismatch',
            'The payment amount does not match the cart: nothing was charged',
          );
        }
        return { created: true as const, row, ...(await writeOrder(tx, row, payment)) };
      })
      .catch(async (error: unknown) => {
        if (!(error instanceof Refused)) throw error;
        onPaymentOutcome?.('refused', error.code);
        // Nothing was written: the authorisation is voided, so nothing is charged.
        await cancelQuietly(error.row, error.code, error.message);
        throw new AppError(error.status, error.code, error.message);
      });
    if (!outcome.created) return orderAnswer(outcome.orderId);
    await afterOrder(outcome.answer.reference, outcome.row, payment, outcome.countedSaleIds);
    return outcome.answer;
  }

  /** Writes the paid order; answers it, and the sales whose use it counted (given back if the capture fails). */
  async function writeOrder(
    tx: Tx,
    row: PaymentRow,
    payment: ProviderPayment,
  ): Promise<{ answer: OrderAnswer; countedSaleIds: string[] }> {
    const cart = row.cart;
    for (const item of cart.items) {
      // A line short of stock takes nothing, and the transaction is undone.
      const taken = await takeStock(tx, item);
      if (taken === 'short') throw soldOut(row, item.title ?? (await titleOf(tx, item.productId)));
    }
    const saleIds = cart.saleIds ?? [];
    let countedSaleIds: string[] = [];
    if (cart.discountCodes.length || saleIds.length) {
      // A running sale's use is counted under its limit too; only a coupon used up refuses the order.
      const used = await tx
        .update(sales)
        .set({ usageCount: sql`${sales.usageCount} + 1` })
        .where(
          and(
            or(
              cart.discountCodes.length ? inArray(sales.couponCode, cart.discountCodes) : undefined,
              saleIds.length ? and(isNull(sales.couponCode), inArray(sales.id, saleIds)) : undefined,
            ),
            or(isNull(sales.usageLimit), lt(sales.usageCount, sales.usageLimit)),
          ),
        )
        .returning({ id: sales.id, code: sales.couponCode });
      countedSaleIds = used.map((sale) => sale.id);
      const limited = cart.discountCodes.length
        ? await tx.select({ code: sales.couponCode }).from(sales).where(inArray(sales.couponCode, cart.discountCodes))
        : [];
      const missing = limited.find((sale) => !used.some((u) => u.code === sale.code));
      if (missing?.code) {
        throw new Refused(
          row,
          409,
          'coupon_used_up',
          `Code "${missing.code}" has just been used up. Nothing was charged.`,
        );
      }
    }
    const shipping = cart.shipping as DraftAddress | null;
    const billing = (cart.billing as DraftAddress | null) ?? shipping;
    const breakdown = row.breakdown;
    const supplierCost = cart.items.reduce((sum, item) => sum + (item.unitCost ?? 0) * item.quantity, 0);
    const [order] = await tx
      .insert(orders)
      .values({
        // The next number of the sequence: never handed out twice, whatever runs at the same time.
        orderNumber: sql`'SW-' || nextval(${orderNumbers.seqName}::regclass)`,
        userId: cart.userId ?? null,
        email: cart.email,
        customerName: shipping?.name || cart.email,
        status: PAID_STATUS,
        subtotal: breakdown.subtotal,
        discount: breakdown.discount,
        shipping: breakdown.shipping ?? 0,
        tax: breakdown.tax,
        fee: breakdown.processingFee,
        total: breakdown.total,
        supplierCost,
        shippingAddress: shipping ? toAddress(shipping) : null,
        billingAddress: billing ? toAddress(billing) : null,
        discountCodes: cart.discountCodes,
        saleIds,
      })
      .returning({ id: orders.id, orderNumber: orders.orderNumber, total: orders.total });
    if (!order) throw new Error('the order could not be stored');
    await tx.insert(orderItems).values(
      cart.items.map((item) => ({
        orderId: order.id,
        productId: item.productId,
        productName: item.title ?? 'Product',
        skuId: item.skuId,
        skuAttr: item.skuAttr ?? null,
        variantName: item.variantName ?? null,
        quantity: item.quantity,
        unitPrice: item.unitPrice,
        unitCost: item.unitCost ?? 0,
        image: item.image ?? null,
      })),
    );
    await tx
      .update(payments)
      .set({
        orderId: order.id,
        // Captured right after this transaction (succeeded then); a failed capture sets it to failed
        // (undoOrder). A crash in between leaves it capturing, for the recovery job.
        status: payment.status === 'succeeded' ? 'succeeded' : 'capturing',
        cart: { ...cart, countedSaleIds },
        cardBrand: payment.card?.brand ?? null,
        cardLast4: payment.card?.last4 ?? null,
        updatedAt: new Date(),
      })
      .where(eq(payments.id, row.id));
    crash('order-transaction');
    return { answer: { reference: order.id, orderNumber: order.orderNumber, total: order.total }, countedSaleIds };
  }

  /**
   * The order is written: capture the payment, then tell the shopper and everyone else. The
   * conversion is the browser's to report (POST /api/analytics/conversion, with its analytics
   * session), so it is not counted twice here.
   */
  async function afterOrder(orderId: string, row: PaymentRow, payment: ProviderPayment, countedSaleIds: string[]) {
    if (payment.status === 'requires_capture') {
      try {
        await processor.capture(row.providerPaymentId, `capture:${row.providerPaymentId}`);
        crash('after-capture');
      } catch (error) {
        const captured = await processor.retrieve(row.providerPaymentId).catch(() => null);
        if (captured?.status !== 'succeeded') {
          log('capturing a payment failed: its order is cancelled and its stock returned', error);
          onPaymentOutcome?.('capture_failed');
          await undoOrder(orderId, row, countedSaleIds);
          throw new AppError(402, 'capture_failed', 'Payment failed');
        }
      }
    }
    onPaymentOutcome?.('order_created');
    const { cart } = row;
    const { enableNewsletter } = await settings.get();
    if (cart.newsletter && enableNewsletter && cart.email) {
      // The newsletter's own sign-up: confirmed by mail first when the shop asks for it. The order
      // is paid and kept whatever happens here.
      await subscribeToNewsletter(cart.email).catch((error: unknown) =>
        log('newsletter sign-up at checkout failed', error),
      );
    }
    events.publish({ type: 'order_created', data: { collection: 'orders', id: orderId } });
    await sendConfirmation({ orderId });
    // The order is paid and kept whatever happens here; a failure is in the log.
    await fulfil(orderId).catch((error: unknown) => log('handing a paid order to fulfilment failed', error));
    // Last: a crash before this line leaves the payment capturing, and the recovery job does the
    // above again (the capture is idempotent; the confirmation may then go twice, never not at all).
    await db
      .update(payments)
      .set({ status: 'succeeded', updatedAt: new Date() })
      .where(and(eq(payments.id, row.id), eq(payments.status, 'capturing')));
  }

  /** A capture that failed: the order is cancelled, its stock and its sales' uses put back, in one transaction. */
  async function undoOrder(orderId: string, row: PaymentRow, countedSaleIds: string[]) {
    await db.transaction(async (tx) => {
      await tx.update(orders).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(orders.id, orderId));
      for (const item of row.cart.items) await returnStock(tx, item);
      // Not a paid order after all: the uses it counted of its sales, and only those (a sale at
      // its limit priced it without counting), are given back.
      if (countedSaleIds.length) {
        await tx
          .update(sales)
          .set({ usageCount: sql`greatest(${sales.usageCount} - 1, 0)` })
          .where(inArray(sales.id, countedSaleIds));
      }
      await tx.update(payments).set({ status: 'failed', failureCode: 'capture_failed' }).where(eq(payments.id, row.id));
    });
  }

  async function cancelQuietly(row: PaymentRow, code: string, message: string) {
    await processor.cancel(row.providerPaymentId, `cancel:${row.providerPaymentId}`).catch((error: unknown) => {
      log('cancelling a payment failed', error);
    });
    await db
      .update(payments)
      .set({ status: 'canceled', failureCode: code, failureMessage: message, updatedAt: new Date() })
      .where(eq(payments.id, row.id));
  }

  async function orderAnswer(orderId: string) {
    const [order] = await db
      .select({ id: orders.id, orderNumber: orders.orderNumber, total: orders.total })
      .from(orders)
      .where(eq(orders.id, orderId));
    if (!order) throw notFound('Order not found');
    return { reference: order.id, orderNumber: order.orderNumber, total: order.total };
  }

  const sendConfirmation = jobs.define<{ orderId: string }>('checkout.order-confirmation-mail', async ({ orderId }) => {
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!order) return;
    const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const text = [
      `Thank you for your order ${order.orderNumber}.`,
      '',
      ...lines.map(
        (line) =>
          `${line.quantity} × ${line.productName}${line.variantName ? ` (${line.variantName})` : ''}: ${formatCents(line.unitPrice * line.quantity)}`,
      ),
      '',
      `Subtotal: ${formatCents(order.subtotal)}`,
      ...(order.discount ? [`Discount: −${formatCents(order.discount)}`] : []),
      `Shipping: ${formatCents(order.shipping)}`,
      `Tax: ${formatCents(order.tax)}`,
      ...(order.fee ? [`Processing fee: ${formatCents(order.fee)}`] : []),
      `Total: ${formatCents(order.total)}`,
      '',
      "What's next: we are preparing your order, and we will email you the tracking number as soon as it ships.",
      `Your order reference: ${order.id} (${publicUrl}/success?session_id=${order.id})`,
    ].join('\n');
    await mailer.send({
      to: order.email,
      subject: `Your Stillwater order ${order.orderNumber}`,
      text,
      template: 'order-confirmation',
    });
  });

  /**
   * A payment refunded in full (from the provider's dashboard): its order is cancelled, as the
   * order statuses allow from any state but cancelled. A partial refund changes no status.
   */
  async function refunded(providerPaymentId: string) {
    const [row] = await db
      .update(payments)
      .set({ status: 'refunded', updatedAt: new Date() })
      .where(and(eq(payments.provider, processor.name), eq(payments.providerPaymentId, providerPaymentId)))
      .returning({ orderId: payments.orderId });
    if (!row?.orderId) return;
    const [cancelled] = await db
      .update(orders)
      .set({ status: 'cancelled', updatedAt: new Date() })
      .where(and(eq(orders.id, row.orderId), inArray(orders.status, movableTo('cancelled'))))
      .returning({ id: orders.id });
    if (cancelled) events.publish({ type: 'order_updated', data: { collection: 'orders', id: cancelled.id } });
  }

  /**
   * A provider's webhook: acted on in any order, however often it comes. The event is recorded as
   * handled only once it has been: a crash half-way leaves it unrecorded, and the provider's next
   * delivery does the rest (every handler here may run twice: a completion finds its order, a
   * refund its refunded payment).
   */
  async function handlePaymentEvent(event: PaymentEvent) {
    const eventKey = and(eq(paymentEvents.provider, processor.name), eq(paymentEvents.eventId, event.id));
    const [seen] = await db.select({ eventId: paymentEvents.eventId }).from(paymentEvents).where(eventKey);
    if (seen) return { duplicate: true };
    if ((event.type === 'payment_authorized' || event.type === 'payment_succeeded') && event.paymentId) {
      await completePayment(event.paymentId).catch((error: unknown) => {
        // Refused and cancelled (sold out, limit), or not a payment of this shop: the event is handled.
        if (!(error instanceof AppError && [404, 409, 429].includes(error.statusCode))) throw error;
      });
    } else if (event.type === 'payment_refunded' && event.paymentId && event.refund?.full) {
      await refunded(event.paymentId);
    } else if (event.type === 'payment_failed' && event.paymentId && event.payment?.failure) {
      await db
        .update(payments)
        .set({ failureCode: event.payment.failure.code, failureMessage: event.payment.failure.message })
        .where(and(eq(payments.provider, processor.name), eq(payments.providerPaymentId, event.paymentId)));
    }
    crash('webhook-handled');
    const [fresh] = await db
      .insert(paymentEvents)
      .values({ provider: processor.name, eventId: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    // Two deliveries of one event at once: both acted (harmlessly), one of them says so.
    return { duplicate: !fresh };
  }

  /** A payment the provider has authorised: the recovery job makes its order if the completion dies half-way. */
  async function markAuthorized(providerPaymentId: string) {
    await db
      .update(payments)
      .set({ status: 'authorized', updatedAt: new Date() })
      .where(
        and(
          eq(payments.provider, processor.name),
          eq(payments.providerPaymentId, providerPaymentId),
          eq(payments.status, 'requires_payment_method'),
        ),
      );
  }

  /**
   * Finishes what a crash (or a lost connection) left half-way, every minute and once as the queue
   * starts: a payment authorised with no order gets its order (or is voided when refused), an order
   * whose capture did not finish is captured and confirmed, or undone when the authorisation is gone.
   * Only payments untouched for RECOVER_AFTER_MS, each claimed by one instance (a fresh
   * updated_at), so a completion still under way elsewhere is left alone.
   */
  async function recoverPayments() {
    const unfinished = db
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.provider, processor.name),
          inArray(payments.status, ['authorized', 'capturing']),
          lt(payments.updatedAt, new Date(Date.now() - RECOVER_AFTER_MS)),
        ),
      )
      .orderBy(payments.updatedAt)
      .limit(RECOVERY_BATCH)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(payments)
      .set({ updatedAt: new Date() })
      .where(inArray(payments.id, unfinished))
      .returning();
    const outcomes: Record<string, number> = {};
    for (const row of claimed) {
      const outcome = await recoverPayment(row).catch((error: unknown) => {
        log(`recovering payment ${row.id} failed; the next run tries again`, error);
        return 'retry_later';
      });
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    if (claimed.length > 0) {
      log(`payment recovery finished what a crash or a lost connection left half-way: ${JSON.stringify(outcomes)}`);
    }
    return outcomes;
  }

  async function recoverPayment(row: PaymentRow): Promise<string> {
    const payment = await processor.retrieve(row.providerPaymentId);
    const authorised = payment.status === 'requires_capture' || payment.status === 'succeeded';
    if (row.status === 'authorized') {
      if (authorised) {
        return completePayment(row.providerPaymentId).then(
          () => 'order_created',
          (error: unknown) => {
            // Refused (sold out, limit, amount): completePayment voided it.
            if (error instanceof AppError && error.statusCode < 500) return 'refused';
            throw error;
          },
        );
      }
      // The authorisation is gone (voided or expired at the provider): nothing to charge, no order.
      await db
        .update(payments)
        .set({ status: payment.status === 'canceled' ? 'canceled' : 'requires_payment_method', updatedAt: new Date() })
        .where(and(eq(payments.id, row.id), eq(payments.status, 'authorized')));
      return 'authorisation_gone';
    }
    const counted = row.cart.countedSaleIds ?? [];
    if (!row.orderId) throw new Error('a capturing payment without its order');
    if (authorised) {
      await afterOrder(row.orderId, row, payment, counted).catch((error: unknown) => {
        // A refused capture has undone its order (afterOrder's own answer to the shopper).
        if (!(error instanceof AppError && error.code === 'capture_failed')) throw error;
      });
      return 'captured';
    }
    log(`payment ${row.id}: its authorisation ended before the capture; its order is cancelled`);
    await undoOrder(row.orderId, row, counted);
    events.publish({ type: 'order_updated', data: { collection: 'orders', id: row.orderId } });
    return 'order_undone';
  }

  jobs.schedule({
    name: 'checkout.recover-payments',
    schedule: '* * * * *',
    alsoAtStart: true,
    run: () => recoverPayments(),
  });

  return {
    createOrUpdatePaymentIntent,
    retrievePaymentIntent,
    confirmTestCard,
    completePayment,
    handlePaymentEvent,
    recoverPayments,
    parseWebhook: (raw: Buffer, signature: string | undefined) => processor.parseWebhook(raw, signature),
    browserConfig: processor.browserConfig,
  };
}

async function titleOf(tx: Tx, productId: string) {
  const [row] = await tx.select({ title: products.title }).from(products).where(eq(products.id, productId));
  return row?.title ?? 'A product';
}

function toAddress(address: DraftAddress) {
  return {
    name: address.name,
    street: address.street,
    ...(address.line2 ? { line2: address.line2 } : {}),
    city: address.city,
    state: address.state,
    zipCode: address.zipCode,
    country: address.country.toUpperCase(),
  };
}

/**
 * A completion refused before anything was written (sold out, a coupon used up, the daily limit,
 * an amount that does not match): the payment's authorisation is then voided.
 */
class Refused extends Error {
  readonly row: PaymentRow;
  readonly status: number;
  readonly code: string;
  constructor(row: PaymentRow, status: number, code: string, message: string) {
    super(message);
    this.row = row;
    this.status = status;
    this.code = code;
  }
}

/** A line had less stock than the cart: the shopper is told which product just sold out. */
const soldOut = (row: PaymentRow, product: string) =>
  new Refused(row, 409, 'sold_out', `${product} just sold out. Nothing was charged.`);

export type CheckoutService = ReturnType<typeof createCheckoutService>;
