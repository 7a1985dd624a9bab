import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  isSafeRedirect,
  REDIRECT_FALLBACK,
  REDIRECT_MAX_LENGTH,
  SAFE_REDIRECT_PREFIXES,
  safeRedirect,
} from './redirect-safety.ts';

// The spec's list, written out again so a change to the constant shows up here.
const SPEC_PREFIXES = [
  '/account',
  '/browse',
  '/cart',
  '/checkout',
  '/orders',
  '/reviews',
  '/product',
  '/admin',
  '/products',
];
const BASE = 'https://shop.example';
const RUNS = 2000;

/** The test's own decoding: until stable; null when decodeURIComponent throws. */
function decodeAll(target: string): string[] | null {
  const forms = [target];
  for (let round = 0; round < 10; round++) {
    let next: string;
    try {
      next = decodeURIComponent(forms[forms.length - 1] ?? '');
    } catch {
      return null;
    }
    if (next === forms[forms.length - 1]) return forms;
    forms.push(next);
  }
  return forms;
}

/** U+0000-U+001F, U+007F, U+2028, U+2029. */
function hasControlCharacter(value: string): boolean {
  return Array.from(value).some((char) => {
    const code = char.charCodeAt(0);
    return code <= 0x1f || code === 0x7f || code === 0x2028 || code === 0x2029;
  });
}

function isUnderSpecPrefix(path: string): boolean {
  if (path === '/') return true;
  return SPEC_PREFIXES.some(
    (prefix) => path === prefix || ['/', '?', '#'].some((end) => path.startsWith(`${prefix}${end}`)),
  );
}

/** What an accepted target must satisfy, checked independently of the implementation. */
function expectHarmless(target: string): void {
  expect(isUnderSpecPrefix(target)).toBe(true);
  const forms = decodeAll(target);
  expect(forms).not.toBeNull();
  for (const form of forms ?? []) {
    const url = new URL(form, BASE);
    expect(url.origin).toBe(BASE);
    expect(isUnderSpecPrefix(url.pathname)).toBe(true);
    expect(form).not.toMatch(/[<>]|javascript:|data:|vbscript:/i);
    expect(hasControlCharacter(form)).toBe(false);
    expect(form.split(/[/?#]/)).not.toContain('..');
  }
}

const DANGEROUS_FRAGMENTS = [
  '//',
  '\\',
  '%2F',
  '%252F',
  '%5C',
  '%255C',
  '..',
  '.',
  '%2e',
  '%2E',
  '%252e',
  'javascript:',
  'JaVaScRiPt:',
  'data:',
  'vbscript:',
  'file:',
  '<script>',
  '<',
  '>',
  '%3C',
  '%253C',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u007f',
  '\u2028',
  '%0a',
  '%0D',
  '%00',
  '%',
  '%25',
  '%E0%A4%A',
  'https:',
  'evil.example',
  'login',
  '@',
  ':',
  ' ',
];
const HARMLESS_FRAGMENTS = ['/', '?', '#', '=', '&', '-', 'a', 'led', 'fountain', '%20', '%C3%A9'];

/** Strings stitched from dangerous and harmless fragments and the allowed prefixes, usually starting with one. */
const mixedTarget = fc
  .tuple(
    fc.option(fc.constantFrom(...SPEC_PREFIXES, '/'), { freq: 4 }),
    fc.array(fc.constantFrom(...DANGEROUS_FRAGMENTS, ...HARMLESS_FRAGMENTS, ...SPEC_PREFIXES), { maxLength: 8 }),
  )
  .map(([prefix, parts]) => (prefix ?? '') + parts.join(''));

/** Realistic links under an allowed prefix: web paths, query strings and fragments, percent-escapes included. */
const prefixedWebTarget = fc
  .tuple(
    fc.constantFrom(...SPEC_PREFIXES),
    fc.webPath(),
    fc.option(fc.webQueryParameters()),
    fc.option(fc.webFragments()),
  )
  .map(
    ([prefix, path, query, fragment]) =>
      `${prefix}${path}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`,
  );

const anyTarget = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webPath().map((path) => `/${path}`),
  prefixedWebTarget,
  mixedTarget,
);

describe('accepted targets', () => {
  test('the prefix list and fallback are the spec’s', () => {
    expect([...SAFE_REDIRECT_PREFIXES]).toEqual(SPEC_PREFIXES);
    expect(REDIRECT_FALLBACK).toBe('/login');
  });

  test.each(SPEC_PREFIXES)('%s, with sub-paths, queries and fragments', (prefix) => {
    for (const target of [prefix, `${prefix}/`, `${prefix}/sub/path`, `${prefix}?page=2&sort=new`, `${prefix}#top`]) {
      expect(isSafeRedirect(target)).toBe(true);
      expect(safeRedirect(target)).toBe(target);
    }
  });

  test('exactly / and the everyday storefront links', () => {
    for (const target of [
      '/',
      '/products?search=led&category=fountains',
      '/products?search=led%20fountain',
      '/product/desktop-fountain#reviews',
      '/product/caf%C3%A9-lamp',
      '/checkout/payment',
      '/admin/orders/42',
    ]) {
      expect(safeRedirect(target)).toBe(target);
    }
  });
});

/** The test's own encoding: encodeURI, then the escapes the target already had restored (`%2520` back to `%20`). */
function encodeForUriTest(target: string): string {
  return encodeURI(target).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
}

describe('targets are percent-encoded as URIs, so non-ASCII ones fit in a Location header', () => {
  test.each([
    ['/account/日本', '/account/%E6%97%A5%E6%9C%AC'],
    ['/products?search=café', '/products?search=caf%C3%A9'],
    ['/products?search=café lamp', '/products?search=caf%C3%A9%20lamp'],
    ['/products?search="zen"{1}', '/products?search=%22zen%22%7B1%7D'],
    ['/products?search=日本%20lamp#über', '/products?search=%E6%97%A5%E6%9C%AC%20lamp#%C3%BCber'],
    ['/product/🪴-planter', '/product/%F0%9F%AA%B4-planter'],
    // Existing escapes stay as they are: nothing is encoded twice.
    ['/product/caf%C3%A9-lamp', '/product/caf%C3%A9-lamp'],
    ['/products?search=led%20fountain&page=2', '/products?search=led%20fountain&page=2'],
  ])('%j', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
    expect(() => new Headers({ location: safeRedirect(target) })).not.toThrow();
  });

  test('the spec rule still applies to the characters themselves', () => {
    // Unsafe in any script: the check runs on the target before it is encoded.
    for (const target of ['/accountü', '/ログイン', '/account/\u0085', '/account\u2028日本', '/日本']) {
      expect(safeRedirect(target)).toBe('/login');
    }
  });

  test('a lone surrogate, or an encoded form over the length cap, falls back', () => {
    expect(safeRedirect('/account/\ud800')).toBe('/login');
    const long = `/products?q=${'日'.repeat(300)}`;
    expect(isSafeRedirect(long)).toBe(true);
    expect(safeRedirect(long)).toBe('/login');
  });
});

describe('rejected targets fall back to /login', () => {
  test.each([
    ['no leading slash', 'account'],
    ['a full URL', 'https://evil.example'],
    ['protocol-relative', '//evil.example'],
    ['encoded protocol-relative', '/%2F%2Fevil.example'],
    ['double-encoded protocol-relative', '/%252F%252Fevil.example'],
    ['backslash', '/\\evil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['javascript after a slash', '/javascript:alert(1)'],
    ['mixed-case javascript', 'JaVaScRiPt:alert(1)'],
    ['mixed-case javascript after a slash', '/JaVaScRiPt:alert(1)'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['data after a slash', '/data:text/html;base64,PHNjcmlwdD4='],
    ['vbscript scheme', 'vbscript:msgbox(1)'],
    ['vbscript after a slash', '/vbscript:msgbox(1)'],
    ['file scheme', 'file:///etc/passwd'],
    ['file after slashes', '///file:/etc/passwd'],
    ['ftp scheme', 'ftp://x'],
    ['ftp after a slash with spaces', '/ ftp :x'],
    ['login', '/login'],
    ['login with a query', '/login?next=/account'],
    ['login sub-path', '/login/reset'],
    ['login in capitals', '/LOGIN'],
    ['register with a query', '/register?x'],
    ['logout', '/logout'],
    ['parent directory', '/account/../admin'],
    ['encoded parent directory', '/products/%2e%2e/admin'],
    ['encoded parent directory and slash', '/%2e%2e%2fadmin'],
    ['newline', '/account\n'],
    ['escaped-looking newline (a backslash)', '/account\\n'],
    ['encoded CRLF header injection', '/account%0d%0aSet-Cookie:x=1'],
    ['tab', '/account\t'],
    ['NUL', '/account\u0000'],
    ['DEL', '/account\u007f'],
    ['line separator', '/account\u2028'],
    ['script tag', '/product/<script>alert(1)</script>'],
    ['encoded script tag', '/products?q=%3Cscript%3E'],
    ['malformed escape', '/products/%E0%A4%A'],
    ['malformed escape alone', '%E0%A4%A'],
    ['not allowed: /accountant', '/accountant'],
    ['not allowed: /products-evil', '/products-evil'],
    ['not allowed: /api/admin', '/api/admin'],
    ['not allowed: /foo', '/foo'],
    ['/ with a query is not exactly /', '/?next=//evil.example'],
    ['prefix in the wrong case', '/ACCOUNT'],
    ['too long', `/products?q=${'a'.repeat(REDIRECT_MAX_LENGTH)}`],
    ['empty', ''],
  ])('%s: %j', (_name, target) => {
    expect(isSafeRedirect(target)).toBe(false);
    expect(safeRedirect(target)).toBe('/login');
  });

  // Under an allowed prefix, so only the content check (and the decoding) can reject them.
  test.each([
    ['double-encoded parent directory', '/products/%252e%252e/admin'],
    ['double-encoded slash then parent', '/account%252F..%252Fadmin'],
    ['double-encoded script tag', '/products?q=%253Cscript%253E'],
    ['double-encoded CRLF', '/cart%250d%250aSet-Cookie:x=1'],
    ['encoded backslash', '/account/%5Cevil.example'],
    ['encoded CRLF header injection', '/account/%0d%0aSet-Cookie:x=1'],
    ['a tab the URL parser would drop', '/account/\t/evil.example'],
    ['encoded NUL', '/orders/%00'],
    ['paragraph separator', '/cart?note=\u2029'],
    ['javascript in the query', '/products?next=javascript:alert(1)'],
    ['data in the path', '/product/data:text/html'],
    ['a stray angle bracket', '/products?q=a>b'],
    ['a lone % after decoding', '/products?search=100%25'],
    ['more encoding layers than the cap', `/products?q=%${'25'.repeat(6)}3C`],
  ])('%s: %j', (_name, target) => {
    expect(safeRedirect(target)).toBe('/login');
  });

  test('null, undefined and non-strings fall back', () => {
    expect(safeRedirect(null)).toBe('/login');
    expect(safeRedirect(undefined)).toBe('/login');
    expect(safeRedirect(['/account'] as unknown as string)).toBe('/login');
  });

  test('the length cap is inclusive', () => {
    const atCap = `/products?q=${'a'.repeat(REDIRECT_MAX_LENGTH - '/products?q='.length)}`;
    expect(atCap).toHaveLength(REDIRECT_MAX_LENGTH);
    expect(isSafeRedirect(atCap)).toBe(true);
    expect(isSafeRedirect(`${atCap}a`)).toBe(false);
  });
});

describe('properties', () => {
  test.each([
    ['mixed fragments', mixedTarget],
    ['prefixed web links', prefixedWebTarget],
  ])('the %s arbitrary reaches both verdicts (the properties are not vacuous)', (_name, arbitrary) => {
    const verdicts = fc.sample(arbitrary, { numRuns: 1000, seed: 1 }).map(isSafeRedirect);
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(50);
    expect(verdicts.filter((safe) => !safe).length).toBeGreaterThan(10);
  });

  test('an accepted target stays on the site, under an allowed prefix, with nothing dangerous in any decoded form', () => {
    fc.assert(
      fc.property(anyTarget, (target) => {
        if (isSafeRedirect(target)) expectHarmless(target);
      }),
      { numRuns: RUNS },
    );
  });

  test('safeRedirect returns its input (encoded as a URI) or /login, and only when the input is safe', () => {
    fc.assert(
      fc.property(fc.oneof(anyTarget, fc.constant(null), fc.constant(undefined)), (target) => {
        const result = safeRedirect(target);
        if (result !== '/login') {
          expect(typeof target === 'string' && isSafeRedirect(target)).toBe(true);
          expect(result).toBe(encodeForUriTest(target as string));
          expect(isSafeRedirect(result)).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('the result fits in a Location header, decodes like the input, and is stable', () => {
    fc.assert(
      fc.property(anyTarget, (target) => {
        const result = safeRedirect(target);
        expect(result).toMatch(/^[\x21-\x7e]+$/);
        expect(() => new Headers({ location: result })).not.toThrow();
        expect(safeRedirect(result)).toBe(result);
        if (result !== '/login') expect(decodeURIComponent(result)).toBe(decodeURIComponent(target));
      }),
      { numRuns: RUNS },
    );
  });

  test('plain slugs under /products/ and /product/ are accepted', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{0,20}$/), (slug) => {
        expect(safeRedirect(`/products/${slug}`)).toBe(`/products/${slug}`);
        expect(safeRedirect(`/product/${slug}`)).toBe(`/product/${slug}`);
      }),
      { numRuns: RUNS },
    );
  });
});
