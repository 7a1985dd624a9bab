import * as z from 'zod/mini';
import { MAX_PAGE_LENGTH } from '#common/constants.ts';

/** The browser tab's analytics session: random, kept in session storage (web/storefront/tracking). */
export const AnalyticsSessionId = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters or digits'));

/** A user id as the browser knows it (the server stores the signed-in user's own, not this). */
const ClaimedUserId = z.optional(z.nullable(z.string().check(z.maxLength(64))));

/** Spec section 7: fired on every navigation; userId only when cookies are accepted. */
export const recordPageView = {
  method: 'POST',
  path: '/api/analytics/pageview',
  body: z.object({
    page: z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(MAX_PAGE_LENGTH, `must be at most ${MAX_PAGE_LENGTH} characters`),
        z.startsWith('/', 'must be a path starting with /'),
      ),
    userId: ClaimedUserId,
    cookiesAccepted: z.boolean(),
    /** Beyond the spec's fields: the tab's session, which bounce rate and session duration need. */
    sessionId: AnalyticsSessionId,
    referrer: z.optional(z.nullable(z.string().check(z.maxLength(MAX_PAGE_LENGTH)))),
  }),
  /**
   * 204 No Content, recorded or not (a bot is counted nowhere): a page view is a beacon, and an
   * answer without a body is the cheapest to send on the hottest write.
   */
  status: 204,
  response: z.null(),
} as const;

/** Spec section 7: fired once the order is paid, from /success. */
export const recordConversion = {
  method: 'POST',
  path: '/api/analytics/conversion',
  body: z.object({
    /** The browser's figure in cents; the server records the order's own total. */
    orderValue: z.number().check(z.gte(0)),
    userId: ClaimedUserId,
    sessionId: AnalyticsSessionId,
    /** Beyond the spec's fields: the order's public reference, so a conversion is a real order, once. */
    reference: z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be an order reference')),
  }),
  response: z.object({ recorded: z.boolean() }),
} as const;
