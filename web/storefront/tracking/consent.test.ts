import { describe, expect, test } from 'vitest';
import { consentFrom, parseConsent } from './consent.ts';

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
