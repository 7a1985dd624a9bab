import { lt } from 'drizzle-orm';
import type { SocialShop } from '#server/adapters/social-shop/social-shop.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import type { Db } from '#server/db/client.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import type { SecretBox } from '#server/features/settings/secret-box.ts';
import { AppError } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { createChannelOrders } from './channel-orders.ts';
import { createGrants } from './grants.ts';
import { socialShopWebhookEvents } from './social-shop.tables.ts';
import { createSocialShopSync } from './sync.ts';

/** Stock changes are pushed this long after the last one (orders come in bursts). */
export const STOCK_PUSH_DEBOUNCE_MS = 5_000;
/** The order search and the stock check run this often, whatever the webhook brought. */
export const SOCIAL_SHOP_POLL_SCHEDULE = '*/5 * * * *';
/** Webhook deliveries are remembered this long (the channel retries a delivery for a few days). */
const WEBHOOK_MEMORY_MS = 30 * 24 * 60 * 60_000;
/** The channel's event type of an order status change. */
const ORDER_STATUS_CHANGE = 1;

/**
 * The social-shop channel (issue 14): authorisations and shops, product and stock syncs, and
 * channel orders in, by the signed webhook and by a periodic search. Stock changes here (orders,
 * edits) are pushed to the channel by a debounced job.
 */
export function createSocialShopService({
  db,
  socialShop,
  box,
  storage,
  jobs,
  events,
  fulfil,
  now = () => new Date(),
  log = () => {},
}: {
  db: Db;
  socialShop: SocialShop;
  box: SecretBox;
  storage: ObjectStorage;
  jobs: Jobs;
  events: DomainEvents;
  fulfil: (orderId: string) => Promise<void>;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}) {
  const grants = createGrants({ db, socialShop, box, now, log });
  const sync = createSocialShopSync({ db, socialShop, grants, storage, jobs, now, log });
  const channelOrders = createChannelOrders({ db, socialShop, grants, events, fulfil, now, log });

  const sendImport = jobs.define<{ shopId: string; orderId: string }>(
    'social-shop.import-order',
    async ({ shopId, orderId }) => {
      const outcome = await channelOrders.importById(shopId, orderId);
      if (outcome === 'unknown_shop') log(`a TikTok Shop webhook named shop ${shopId}, which is not connected`);
    },
    { retryLimit: 5, retryDelay: 30, retryBackoff: true },
  );
  const sendStockPush = jobs.define<Record<string, never>>('social-shop.push-stock', () => sync.pushChangedStock());
  jobs.schedule({
    name: 'social-shop.poll',
    schedule: SOCIAL_SHOP_POLL_SCHEDULE,
    async run() {
      await channelOrders.searchNewOrders();
      await sync.pushChangedStock();
      await db
        .delete(socialShopWebhookEvents)
        .where(lt(socialShopWebhookEvents.receivedAt, new Date(now().getTime() - WEBHOOK_MEMORY_MS)));
    },
  });

  // Debounced per instance: one push job for a burst of orders and edits.
  let pushTimer: NodeJS.Timeout | null = null;
  const unsubscribe = events.subscribe((event) => {
    if (event.type !== 'order_created' && event.type !== 'order_updated' && event.type !== 'product_updated') return;
    if (pushTimer) return;
    pushTimer = setTimeout(() => {
      pushTimer = null;
      sendStockPush({}).catch((error: unknown) => log('queueing the TikTok Shop stock push failed', error));
    }, STOCK_PUSH_DEBOUNCE_MS);
    pushTimer.unref();
  });

  /**
   * A webhook delivery: its signature checked (constant time), its notification id recorded
   * (a replay finds it and is ignored), and an order's change handed to the import job.
   */
  async function receiveWebhook(rawBody: string, authorization: string | undefined) {
    const event = socialShop.verifyWebhook(rawBody, authorization);
    if (!event) throw new AppError(401, 'invalid_signature', 'The webhook signature does not match');
    const [fresh] = await db
      .insert(socialShopWebhookEvents)
      .values({ notificationId: event.notificationId })
      .onConflictDoNothing()
      .returning({ id: socialShopWebhookEvents.notificationId });
    if (!fresh) return { received: true, duplicate: true };
    const orderId = event.data.order_id;
    if (event.type === ORDER_STATUS_CHANGE && typeof orderId === 'string' && /^\w{1,64}$/.test(orderId)) {
      await sendImport({ shopId: event.shopId, orderId });
    }
    return { received: true, duplicate: false };
  }

  return {
    mode: socialShop.mode,
    grants,
    sync,
    channelOrders,
    receiveWebhook,
    close() {
      unsubscribe();
      if (pushTimer) clearTimeout(pushTimer);
      pushTimer = null;
    },
  };
}

export type SocialShopService = ReturnType<typeof createSocialShopService>;
