import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import { CloseIcon } from '#web/common/icons.tsx';
import { chooseConsent, delayConsentBanner, openCookieSettings, useConsent } from './consent.ts';
import { acceptCookies, type TrackingFacts } from './page-tracking.ts';

/**
 * The cookie banner (spec 2 and 4): Deny, Accept All, and a close button that acts as Deny.
 * Fixed over the bottom of the window, so nothing on the page moves (CLS 0). It is in the
 * server's HTML, so it paints with the page rather than after hydration; for a browser that has
 * answered, the head's consentKnownScript hides it before the first paint. It is a labelled region early in
 * the tab order; Escape puts it off for this browser session without a choice. Opened from
 * "Cookie settings", it takes the focus and gives it back once closed. Under Global Privacy
 * Control it only says that the signal is honoured.
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
  const deny = closeWith(() => {
    chooseConsent(false);
    // A pixel loaded earlier in this page would go on running: the page starts again without it.
    if (window.ttq) window.location.reload();
  });
  const accept = closeWith(() => acceptCookies(facts));
  const putOff = closeWith(delayConsentBanner);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') putOff();
  };

  const button = 'rounded-full px-5 py-2.5 text-sm font-medium';
  return (
    <section
      ref={regionRef}
      aria-labelledby={headingId}
      aria-describedby={textId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-consent-pending={consent.pending ? '' : undefined}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-40 p-3 outline-none sm:p-4"
    >
      <div className="pointer-events-auto relative mx-auto max-w-3xl rounded-2xl border border-sage-200 bg-white p-5 pr-12 text-ink shadow-2xl sm:p-6 sm:pr-14">
        <h2 id={headingId} className="font-serif text-xl text-sage-900">
          Cookies
        </h2>
        <p id={textId} className="mt-2 text-sm leading-6 text-stone-700">
          {consent.privacySignal
            ? 'Your browser sends Global Privacy Control, which we treat as Deny: nothing goes to advertising services.'
            : 'We store what the shop needs to work (your cart, your sign-in) and count page views without storing who you are. With Accept All we also load the TikTok pixel to measure our ads.'}{' '}
          <Link to="/privacy#cookies" className="text-sage-700 underline underline-offset-2">
            Privacy Policy
          </Link>
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          {/* Under Global Privacy Control there is nothing to accept: the one button closes. */}
          <button
            type="button"
            onClick={deny}
            className={`${button} border border-sage-700 text-sage-800 hover:bg-sage-50`}
          >
            {consent.privacySignal ? 'OK' : 'Deny'}
          </button>
          {consent.privacySignal ? null : (
            <button type="button" onClick={accept} className={`${button} bg-sage-700 text-white hover:bg-sage-800`}>
              Accept All
            </button>
          )}
        </div>
        {/* Last in the banner's HTML: the stylesheet shows the server's banner once it is parsed (app.css). */}
        <button
          type="button"
          onClick={deny}
          aria-label="Close cookie banner"
          data-consent-banner-end=""
          className="absolute top-3 right-3 rounded-full p-2 text-stone-600 hover:bg-sage-50 hover:text-stone-900"
        >
          <CloseIcon className="h-5 w-5" />
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
