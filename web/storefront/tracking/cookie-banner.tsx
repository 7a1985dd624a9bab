import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import { chooseConsent, delayConsentBanner, openCookieSettings, useConsent } from './consent.ts';
import { acceptCookies, type TrackingFacts } from './page-tracking.ts';

/**
 * The cookie banner (spec 2 and 4): Deny, Accept All, and a close button that acts as Deny.
 * Fixed over the bottom of the window and shown only after hydration, so nothing on the page
 * moves (CLS 0). It is a labelled region early in the tab order; Escape puts it off for this
 * browser session without a choice. Opened from "Cookie settings", it takes the focus and gives
 * it back once closed. Under Global Privacy Control it only says that the signal is honoured.
 */
export function CookieBanner({ facts }: { facts: TrackingFacts }) {
  const consent = useConsent();
  const headingId = useId();
  const textId = useId();
  const regionRef = useRef<HTMLElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!consent.bannerOpen || !consent.reopened) return;
    returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    regionRef.current?.focus();
  }, [consent.bannerOpen, consent.reopened]);

  if (!consent.bannerOpen) return null;

  const closeWith = (choose: () => void) => () => {
    choose();
    returnFocusTo.current?.focus();
    returnFocusTo.current = null;
  };
  const deny = closeWith(() => chooseConsent(false));
  const accept = closeWith(() => acceptCookies(facts));
  const putOff = closeWith(delayConsentBanner);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') putOff();
  };

  const button = 'rounded-full px-5 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2';
  return (
    <section
      ref={regionRef}
      aria-labelledby={headingId}
      aria-describedby={textId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-40 p-3 outline-none sm:p-4"
    >
      <div className="pointer-events-auto relative mx-auto max-w-3xl rounded-2xl border border-sage-200 bg-white p-5 pr-12 text-ink shadow-2xl sm:p-6 sm:pr-14">
        <h2 id={headingId} className="font-serif text-xl text-sage-900">
          Cookies
        </h2>
        {consent.privacySignal ? (
          <p id={textId} className="mt-2 text-sm leading-6 text-stone-700">
            Your browser sends Global Privacy Control, so we treat it as Deny: no advertising cookies, and nothing is
            sent to advertising services. Only what the shop needs to work is stored.{' '}
            <Link to="/privacy#cookies" className="text-sage-700 underline underline-offset-2">
              Privacy Policy
            </Link>
          </p>
        ) : (
          <p id={textId} className="mt-2 text-sm leading-6 text-stone-700">
            We store what the shop needs to work (your cart, your sign-in) and count page views without storing who you
            are. With Accept All we also load the TikTok pixel to measure our ads.{' '}
            <Link to="/privacy#cookies" className="text-sage-700 underline underline-offset-2">
              Privacy Policy
            </Link>
          </p>
        )}
        <div className="mt-4 flex flex-wrap gap-3">
          {consent.privacySignal ? (
            <button type="button" onClick={deny} className={`${button} bg-sage-700 text-white hover:bg-sage-800`}>
              OK
            </button>
          ) : (
            <>
              <button
                type="button"
                onClick={deny}
                className={`${button} border border-sage-700 text-sage-800 hover:bg-sage-50`}
              >
                Deny
              </button>
              <button type="button" onClick={accept} className={`${button} bg-sage-700 text-white hover:bg-sage-800`}>
                Accept All
              </button>
            </>
          )}
        </div>
        <button
          type="button"
          onClick={deny}
          aria-label="Close cookie banner"
          title="Close (Deny)"
          className="absolute top-3 right-3 flex h-9 w-9 items-center justify-center rounded-full text-stone-600 hover:bg-sage-50 hover:text-stone-900 focus-visible:outline-2"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor">
            <path strokeLinecap="round" strokeWidth="2" d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
    </section>
  );
}

/** "Cookie settings": reopens the banner so the visitor can change the choice (footer, privacy page). */
export function CookieSettingsButton({ className, children }: { className?: string; children?: React.ReactNode }) {
  return (
    <button
      type="button"
      onClick={openCookieSettings}
      className={className ?? 'text-sage-700 underline underline-offset-2 hover:text-sage-900'}
    >
      {children ?? 'Cookie settings'}
    </button>
  );
}
