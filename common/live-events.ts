/**
 * The back office's live events (back-office spec 3 "Live event", 4 "Live connection", 7 "Live
 * events" and 9), as the server sends them and the admin app reads them. Plain constants and
 * types: the browser imports this file, so it carries no zod.
 */

/** Spec 7: the collections a message's data names; sales (the sales tab's writes, design 4) added. */
export const liveEventCollections = [
  'orders',
  'products',
  'users',
  'reviews',
  'newslettersubscribers',
  'sales',
] as const;
export type LiveEventCollection = (typeof liveEventCollections)[number];

/** Spec 7: the message types. */
export const liveEventTypes = [
  'order_created',
  'order_updated',
  'product_created',
  'product_updated',
  'product_deleted',
  'product_rating_updated',
  'user_registered',
  'user_updated',
  'review_created',
  'review_updated',
  'review_deleted',
  'newsletter_subscription',
  'newsletter_updated',
  'newsletter_unsubscribed',
  // The sales tab's writes (design 4: sale create and activate wired for real).
  'sale_created',
  'sale_updated',
  'sale_deleted',
] as const;
export type LiveEventType = (typeof liveEventTypes)[number];

/** Spec 3: a message is JSON with a type and data {collection, plus ids and objects}. */
export type LiveEvent = {
  type: LiveEventType;
  data: { collection: LiveEventCollection; id: string } & Record<string, unknown>;
};

/** Where the stream is served (spec 7). */
export const LIVE_EVENTS_PATH = '/api/atlas/events';

/**
 * The stream's named events besides the spec's messages (which are unnamed, `message`):
 * `ready` once the stream is live (its id is where a reconnect resumes from), `reload` when a
 * resume reaches back past the server's backlog (the client reloads what it shows), `revoked`
 * just before the server ends the stream of an account that is no longer an admin.
 */
export const LIVE_READY_EVENT = 'ready';
export const LIVE_RELOAD_EVENT = 'reload';
export const LIVE_REVOKED_EVENT = 'revoked';

/** Spec 4 and 9: events kept per collection. */
export const LIVE_EVENTS_KEPT_PER_COLLECTION = 100;
/** Spec 4 and 9: the automatic reconnect waits this long times the attempt... */
export const LIVE_RECONNECT_STEP_MS = 5000;
/** ...and never longer than this. */
export const LIVE_RECONNECT_MAX_MS = 30_000;
/** Spec 4 and 9: the first reconnect after a manual Reconnect. */
export const LIVE_MANUAL_RECONNECT_MS = 100;

/** Spec 2 (Live connection indicator): its three texts and its button, word for word. */
export const liveIndicatorTexts = {
  connected: 'Live updates active',
  error: 'Connection error',
  connecting: 'Connecting....',
  reconnect: 'Reconnect',
} as const;

/** Spec 8 (Live connection): an open stream that failed, and a connection that never opened. */
export const liveConnectionErrors = {
  lost: 'Connection error occurred',
  failed: 'Failed to connect',
} as const;
