import { useSyncExternalStore } from 'react';

/** Spec section 4: the visitor's choice, kept in local storage as accepted true or false. */
export const CONSENT_KEY = 'stillwater.cookieConsent';
/** Set when the banner was put off for this browser session (Escape): it stays hidden until the next one. */
export const BANNER_DELAYED_KEY = 'stillwater.cookieBannerDelayed';

/**
 * What the shop may do in this browser:
 * - `choice`: the stored answer, null when the visitor has not chosen;
 * - `accepted`: whether cookies and ad tracking are allowed (never under Global Privacy Control);
 * - `privacySignal`: the browser sends Global Privacy Control, which counts as Deny without asking;
 * - `bannerOpen`: the cookie banner is shown; `reopened`: because the visitor asked (Cookie settings);
 * - `pending`: not known yet (the server's render and hydration): the banner is rendered, and the
 *   document's head script hides it at once when the browser has already answered.
 */
export type ConsentState = {
  pending: boolean;
  choice: boolean | null;
  accepted: boolean;
  privacySignal: boolean;
  bannerOpen: boolean;
  reopened: boolean;
};

/** Reads the stored choice; anything but a well-formed `{"accepted": boolean}` is no choice. */
export function parseConsent(stored: string | null): boolean | null {
  if (!stored) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (value && typeof value === 'object' && 'accepted' in value && typeof value.accepted === 'boolean') {
      return value.accepted;
    }
  } catch {
    // A value written by something else: asked again.
  }
  return null;
}

/**
 * The consent the stored facts give. The banner shows for a first-time visitor (nothing stored)
 * unless it was put off this session or the browser already said no through Global Privacy
 * Control; "Cookie settings" (`reopened`) shows it whatever was chosen.
 */
export function consentFrom(facts: {
  stored: string | null;
  delayed: boolean;
  privacySignal: boolean;
  reopened: boolean;
}): ConsentState {
  const choice = parseConsent(facts.stored);
  return {
    pending: false,
    choice,
    accepted: choice === true && !facts.privacySignal,
    privacySignal: facts.privacySignal,
    bannerOpen: facts.reopened || (choice === null && !facts.delayed && !facts.privacySignal),
    reopened: facts.reopened,
  };
}

// Until the page has hydrated nothing is known: no consent, and the banner in the server's HTML
// (so that it paints with the page), hidden before the first paint by consentKnownScript when
// the browser has answered already.
const PENDING: ConsentState = {
  pending: true,
  choice: null,
  accepted: false,
  privacySignal: false,
  bannerOpen: true,
  reopened: false,
};

/**
 * Run in the document's head, before the body is parsed: marks the document `data-consent-known`
 * when the banner is not to be shown (a stored choice, put off this session, or Global Privacy
 * Control), the same facts `consentFrom` reads; the stylesheet then hides the server's banner.
 * A function, so that only the server's build (which renders it) carries the text.
 */
export function consentKnownScript(): string {
  return (
    `(function(){var k=false;try{var c=JSON.parse(localStorage.getItem(${JSON.stringify(CONSENT_KEY)}));` +
    `k=!!c&&typeof c.accepted==="boolean"}catch(e){}` +
    `try{k=k||sessionStorage.getItem(${JSON.stringify(BANNER_DELAYED_KEY)})==="1"}catch(e){}` +
    `if(k||navigator.globalPrivacyControl===true)document.documentElement.setAttribute("data-consent-known","")})()`
  );
}

let reopened = false;
let current: ConsentState | null = null;
const listeners = new Set<() => void>();

function storageItem(storage: 'localStorage' | 'sessionStorage', key: string): string | null {
  try {
    return window[storage].getItem(key);
  } catch {
    // Storage refused (a privacy mode): nothing was stored.
    return null;
  }
}

function store(storage: 'localStorage' | 'sessionStorage', key: string, value: string): void {
  try {
    window[storage].setItem(key, value);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
}

/** Global Privacy Control, as the browser exposes it to scripts (the same signal as `Sec-GPC: 1`). */
function sendsPrivacySignal(): boolean {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

function read(): ConsentState {
  return consentFrom({
    stored: storageItem('localStorage', CONSENT_KEY),
    delayed: storageItem('sessionStorage', BANNER_DELAYED_KEY) === '1',
    privacySignal: sendsPrivacySignal(),
    reopened,
  });
}

function changed() {
  current = read();
  for (const listener of listeners) listener();
}

// Another tab's choice applies on this tab's next page load (each event reads the storage anew then).
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The consent of this browser now (outside React: the trackers read it before each event). */
export function readConsentState(): ConsentState {
  if (typeof window === 'undefined') return PENDING;
  current ??= read();
  return current;
}

export function useConsent(): ConsentState {
  return useSyncExternalStore(subscribe, readConsentState, () => PENDING);
}

/** Deny, Accept All, or the close button (Deny): stored, and the banner closes. */
export function chooseConsent(accepted: boolean): void {
  store('localStorage', CONSENT_KEY, JSON.stringify({ accepted }));
  reopened = false;
  changed();
}

/** Puts the banner off for this browser session without a choice (nothing is tracked meanwhile). */
export function delayConsentBanner(): void {
  store('sessionStorage', BANNER_DELAYED_KEY, '1');
  reopened = false;
  changed();
}

/** "Cookie settings": shows the banner again so the visitor can change the choice. */
export function openCookieSettings(): void {
  reopened = true;
  changed();
}
