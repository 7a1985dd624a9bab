/** Paths a shopper may be sent back to after logging in (spec section 5, storefront). */
export const SAFE_REDIRECT_PREFIXES = [
  '/account',
  '/browse',
  '/cart',
  '/checkout',
  '/orders',
  '/reviews',
  '/product',
  '/admin',
  '/products',
] as const;

/** Where an unsafe or missing target is replaced. */
export const REDIRECT_FALLBACK = '/login';

/** Longer targets are refused outright: no honest link needs more, and every check stays cheap. */
export const REDIRECT_MAX_LENGTH = 2048;

// More layers of percent-encoding than this is obfuscation, not a link anyone typed.
const MAX_DECODE_ROUNDS = 5;

// C0 and C1 controls, DEL, and the line/paragraph separators that some parsers treat as newlines.
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

// Angle brackets at all (so `<script` and any other tag is out) and the script-carrying schemes anywhere.
const MARKUP = /[<>]|javascript:|data:|vbscript:/i;

const FORBIDDEN_SCHEME = /^(?:javascript|data|vbscript|file|ftp):/i;
const AUTH_PAGE = /^(?:login|register|logout)/i;
const PREFIX_END = /^(?:$|[/?#])/;

/** One round of percent-decoding, or null when an escape is malformed. */
function decodeOnce(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * The target and each form it decodes to, decoding until stable; null when an escape is malformed
 * or the target is still changing after MAX_DECODE_ROUNDS.
 */
function decodedForms(target: string): string[] | null {
  const forms = [target];
  let current = target;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const next = decodeOnce(current);
    if (next === null) return null;
    if (next === current) return forms;
    forms.push(next);
    current = next;
  }
  return null;
}

/** The target without its leading slashes (and backslashes, which browsers read as slashes). */
function withoutLeadingSlashes(form: string): string {
  return form.replace(/^[/\\]+/, '');
}

/** A `..` path segment anywhere (the query and fragment included, to keep the rule simple). */
function hasParentSegment(form: string): boolean {
  return form.split(/[/\\?#]/).includes('..');
}

/** A javascript, data, vbscript, file or ftp scheme after the leading slashes, whitespace ignored. */
function hasForbiddenScheme(form: string): boolean {
  return FORBIDDEN_SCHEME.test(withoutLeadingSlashes(form).replace(/\s+/g, ''));
}

/** A path beginning with login, register or logout, in any case: sending a shopper back there loops. */
function isAuthPage(form: string): boolean {
  return AUTH_PAGE.test(withoutLeadingSlashes(form).trimStart());
}

/** Exactly `/`, or an allowed prefix followed by nothing, `/`, `?` or `#` (so `/accountant` is not `/account`). */
function hasAllowedPrefix(form: string): boolean {
  if (form === '/') return true;
  return SAFE_REDIRECT_PREFIXES.some((prefix) => form.startsWith(prefix) && PREFIX_END.test(form.slice(prefix.length)));
}

/** Every check of the rule, on one form (raw or decoded) of the target. */
function isSafeForm(form: string): boolean {
  return (
    form.startsWith('/') &&
    // Protocol-relative `//host` leaves the site, and browsers read `\` as `/`.
    !form.startsWith('//') &&
    !form.includes('\\') &&
    !CONTROL_CHARACTER.test(form) &&
    !hasParentSegment(form) &&
    !MARKUP.test(form) &&
    !hasForbiddenScheme(form) &&
    !isAuthPage(form) &&
    hasAllowedPrefix(form)
  );
}

/**
 * Redirect safety after login (spec section 5, storefront). A target is accepted only when it is a
 * non-empty string of at most REDIRECT_MAX_LENGTH characters that decodes cleanly, and the raw target
 * AND every form it percent-decodes to (decoded repeatedly until stable, at most a few rounds; a
 * malformed escape at any round is unsafe) all:
 * - start with `/` but not `//`, and contain no backslash (browsers read `/\host` as `//host`);
 * - contain no control character (U+0000-U+001F, U+007F-U+009F, U+2028, U+2029);
 * - have no `..` segment (`%2e%2e` and double-encoded forms included, via the decoding);
 * - contain no `<` or `>` at all and no `javascript:`, `data:` or `vbscript:`, in any case, anywhere;
 * - do not start, after the leading slashes, with a javascript, data, vbscript, file or ftp scheme
 *   (case and whitespace ignored), nor with login, register or logout (so `/login?x`, `/LOGIN` too);
 * - are exactly `/`, or one of SAFE_REDIRECT_PREFIXES followed by nothing, `/`, `?` or `#`; the
 *   prefix match is case-sensitive, and `/` with a query or fragment is not "exactly /".
 * Checking every decoded form is what blocks a double-encoded `/%252F%252Fevil.example`. The price:
 * a target whose decoded form holds a lone `%` (a search for `100%` sent as `100%25`) is refused.
 */
export function isSafeRedirect(target: string): boolean {
  // Callers hand over query parameters: guard the type at run time as well.
  if (typeof target !== 'string' || target.length === 0 || target.length > REDIRECT_MAX_LENGTH) return false;
  return decodedForms(target)?.every(isSafeForm) ?? false;
}

// Runs of characters encodeURI would escape (non-ASCII, spaces, quotes...), `%` excepted: escapes stay.
const NOT_IN_URI = /[^A-Za-z0-9;,/?:@&=+$\-_.!~*'()#%]+/gu;

/**
 * The target as a URI: every character outside ASCII, and the few ASCII ones a URI cannot hold
 * (a space, `"`, `{`...), percent-encoded as UTF-8 the way encodeURI does, while existing escapes
 * stay as they are (`%20` is not encoded again). Header values are Latin-1 at most, so
 * `/account/日本` as such cannot be a Location header. Null for a lone surrogate (no UTF-8 form).
 */
function encodeForUri(target: string): string | null {
  try {
    return target.replace(NOT_IN_URI, (run) => encodeURI(run));
  } catch {
    return null;
  }
}

/**
 * The target when isSafeRedirect accepts it, percent-encoded as a URI (it decodes to the same
 * path, and fits in a Location header), else REDIRECT_FALLBACK (`/login`), also when the encoded
 * target has a lone surrogate or is longer than REDIRECT_MAX_LENGTH. The result is always
 * printable ASCII and always accepted by isSafeRedirect.
 */
export function safeRedirect(target: string | null | undefined): string {
  if (typeof target !== 'string' || !isSafeRedirect(target)) return REDIRECT_FALLBACK;
  const encoded = encodeForUri(target);
  return encoded !== null && encoded.length <= REDIRECT_MAX_LENGTH ? encoded : REDIRECT_FALLBACK;
}
