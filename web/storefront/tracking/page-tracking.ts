import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { configureAdPixel, sendAdPageView } from './ad-tracker.ts';
import { sendPageView } from './analytics.ts';
import { chooseConsent, readConsentState } from './consent.ts';

/** Who is looking, as the trackers need it: the signed-in user's id and the shop's pixel (null: none). */
export type TrackingFacts = { userId: string | null; adPixelId: string | null };

/**
 * One page seen: the first-party page view (always, with the consent as it stands) and, with
 * consent, the ad page view (which loads the pixel on first need). Consent is read here, not from
 * React state, which during hydration still holds the server's "unknown".
 */
function trackPage(path: string, { userId }: TrackingFacts) {
  sendPageView(path, { userId, accepted: readConsentState().accepted });
  sendAdPageView(path);
}

/** Spec 7: a page view on every navigation (a new path or query; not a jump within the page). */
export function usePageTracking(facts: TrackingFacts) {
  const { pathname, search } = useLocation();
  const latest = useRef(facts);
  latest.current = facts;
  // Set while rendering: the pages' own effects (ViewContent, CompletePayment) run before this hook's.
  configureAdPixel(facts.adPixelId);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation (path or query) is what triggers it.
  useEffect(() => {
    trackPage(pathname, latest.current);
  }, [pathname, search]);
}

/** Accept All (spec 4): stored, and the page the visitor is on is tracked at once with the consent. */
export function acceptCookies(facts: TrackingFacts) {
  chooseConsent(true);
  trackPage(window.location.pathname, facts);
}
