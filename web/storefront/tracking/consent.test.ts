import { describe, expect, test } from 'vitest';
import { BANNER_DELAYED_KEY, CONSENT_KEY, consentFrom, consentKnownScript, parseConsent } from './consent.ts';

describe('the stored choice', () => {
  test('reads accepted true or false', () => {
    expect(parseConsent('{"accepted":true}')).toBe(true);
    expect(parseConsent('{"accepted":false}')).toBe(false);
  });

  test('anything else is no choice: the visitor is asked again', () => {
    for (const stored of [null, '', 'true', '{"accepted":"yes"}', '{}', '[true]', '{broken', 'null']) {
      expect(parseConsent(stored)).toBeNull();
    }
  });
});

describe('the consent and the banner', () => {
  const facts = { stored: null, delayed: false, privacySignal: false, reopened: false };

  test('a first-time visitor sees the banner and is not tracked until a choice', () => {
    expect(consentFrom(facts)).toEqual({
      pending: false,
      choice: null,
      accepted: false,
      privacySignal: false,
      bannerOpen: true,
      reopened: false,
    });
  });

  test('a choice hides the banner; only Accept All allows tracking', () => {
    expect(consentFrom({ ...facts, stored: '{"accepted":true}' })).toMatchObject({ accepted: true, bannerOpen: false });
    expect(consentFrom({ ...facts, stored: '{"accepted":false}' })).toMatchObject({
      accepted: false,
      bannerOpen: false,
    });
  });

  test('put off this session: no banner, no tracking', () => {
    expect(consentFrom({ ...facts, delayed: true })).toMatchObject({ accepted: false, bannerOpen: false });
  });

  test('Global Privacy Control is Deny without asking, whatever was stored', () => {
    expect(consentFrom({ ...facts, privacySignal: true })).toMatchObject({ accepted: false, bannerOpen: false });
    expect(consentFrom({ ...facts, privacySignal: true, stored: '{"accepted":true}' })).toMatchObject({
      choice: true,
      accepted: false,
    });
  });

  test('Cookie settings shows the banner whatever was chosen', () => {
    for (const stored of ['{"accepted":true}', '{"accepted":false}', null]) {
      expect(consentFrom({ ...facts, stored, reopened: true, delayed: true })).toMatchObject({
        bannerOpen: true,
        reopened: true,
      });
    }
  });
});

describe('the head script that hides the server-rendered banner', () => {
  /** Runs the script against the given storage and signal; true when it marked the document. */
  function marks(facts: { stored: string | null; delayed: boolean; privacySignal: boolean }): boolean {
    const attributes = new Map<string, string>();
    const storage = (values: Record<string, string | null>) => ({ getItem: (key: string) => values[key] ?? null });
    new Function('localStorage', 'sessionStorage', 'navigator', 'document', consentKnownScript())(
      storage({ [CONSENT_KEY]: facts.stored }),
      storage({ [BANNER_DELAYED_KEY]: facts.delayed ? '1' : null }),
      { globalPrivacyControl: facts.privacySignal },
      { documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) } },
    );
    return attributes.has('data-consent-known');
  }

  test('hides the banner exactly when the app would not show it', () => {
    const stored = [null, '', '{"accepted":true}', '{"accepted":false}', '{"accepted":"yes"}', '[true]', 'null', '{x'];
    for (const value of stored) {
      for (const delayed of [false, true]) {
        for (const privacySignal of [false, true]) {
          const facts = { stored: value, delayed, privacySignal };
          expect(marks(facts), JSON.stringify(facts)).toBe(!consentFrom({ ...facts, reopened: false }).bannerOpen);
        }
      }
    }
  });
});
