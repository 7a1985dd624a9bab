import { MAX_PAGE_LENGTH } from '#common/constants.ts';
import type { recordConversion, recordPageView } from '#common/contracts/analytics.ts';
import { api } from '#web/common/browser-api.ts';
import { randomToken } from './random-token.ts';

/** The tab's analytics session (spec 7: kept in session storage): a new tab is a new visit. */
const SESSION_KEY = 'stillwater.analyticsSession';

function analyticsSessionId(): string {
  try {
    const stored = sessionStorage.getItem(SESSION_KEY);
    if (stored && /^[A-Za-z0-9_-]{8,64}$/.test(stored)) return stored;
    const fresh = randomToken();
    sessionStorage.setItem(SESSION_KEY, fresh);
    return fresh;
  } catch {
    // Storage refused: one session per page load is the best that can be counted.
    fallbackSession ??= randomToken();
    return fallbackSession;
  }
}
let fallbackSession: string | null = null;

/** Where the visit came from: another site's address without its query (which may hold anything), once per session. */
let referrerSent = false;
function visitReferrer(): string | null {
  if (referrerSent) return null;
  referrerSent = true;
  try {
    const from = new URL(document.referrer);
    if (from.origin === window.location.origin) return null;
    return `${from.origin}${from.pathname}`.slice(0, MAX_PAGE_LENGTH);
  } catch {
    return null;
  }
}

/**
 * Spec 7: a page view on every navigation. Only the path goes: queries can carry what is not
 * ours to count (a password-reset token). Tracking never disturbs the page, so failures are dropped.
 */
export function sendPageView(path: string, { userId, accepted }: { userId: string | null; accepted: boolean }) {
  if (path.length > MAX_PAGE_LENGTH) return;
  api
    .call<typeof recordPageView>(
      { method: 'POST', path: '/api/analytics/pageview' },
      {
        body: {
          page: path,
          // Spec 7: the user id only if cookies are accepted.
          ...(accepted && userId ? { userId } : {}),
          cookiesAccepted: accepted,
          sessionId: analyticsSessionId(),
          referrer: visitReferrer(),
        },
      },
    )
    .catch(() => {});
}

/** Spec 7: the conversion, once the order is paid (/success); the server counts each order once. */
export function sendConversion(
  order: { reference: string; totalCents: number },
  { userId, accepted }: { userId: string | null; accepted: boolean },
) {
  api
    .call<typeof recordConversion>(
      { method: 'POST', path: '/api/analytics/conversion' },
      {
        body: {
          orderValue: order.totalCents,
          ...(accepted && userId ? { userId } : {}),
          sessionId: analyticsSessionId(),
          reference: order.reference,
        },
      },
    )
    .catch(() => {});
}
