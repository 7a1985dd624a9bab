import * as z from 'zod/mini';

/**
 * The newsletter's public API (issue 12): the footer's sign-up, the double opt-in confirmation,
 * and the unsubscribe link every newsletter carries (RFC 8058 one-click, and a GET for the page).
 */

/** Tokens of the confirmation and unsubscribe links: URL-safe, as the server makes them. */
const LinkToken = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be the token from the link'));

/** What the footer form sends; the address is checked with the account rules' email rule. */
export const subscribeNewsletter = {
  method: 'POST',
  path: '/api/newsletter/subscribe',
  body: z.object({ email: z.string().check(z.maxLength(320)) }),
  /**
   * The same answer whether or not the address was already subscribed (nothing leaks). With the
   * shop's requireEmailVerification on, `confirmationRequired` is true: a link is on its way.
   */
  response: z.object({ message: z.string(), confirmationRequired: z.boolean() }),
} as const;

/** The page the confirmation mail links to (/newsletter/confirm?token=…) posts the token here. */
export const confirmNewsletter = {
  method: 'POST',
  path: '/api/newsletter/confirm',
  body: z.object({ token: LinkToken }),
  response: z.object({ message: z.string() }),
} as const;

/**
 * One-click unsubscribe: POST with the body `List-Unsubscribe=One-Click` (RFC 8058: what mail
 * clients send from the List-Unsubscribe header, form-encoded; the storefront's page sends it as
 * JSON; no CSRF token, no session). Idempotent: a second call answers the same. A GET changes
 * nothing: 303 to the page /newsletter/unsubscribe?token=….
 */
export const unsubscribeNewsletter = {
  path: '/api/newsletter/unsubscribe',
  query: z.object({ token: LinkToken }),
  response: z.object({ message: z.string() }),
} as const;

/** The one-click call as the storefront's page makes it (the same route, its body as JSON). */
export const oneClickUnsubscribe = {
  ...unsubscribeNewsletter,
  method: 'POST',
  body: z.object({ 'List-Unsubscribe': z.literal('One-Click') }),
} as const;

/** The page paths the mails link to (served by the storefront, which calls the API above). */
export const newsletterPages = {
  confirm: '/newsletter/confirm',
  unsubscribe: '/newsletter/unsubscribe',
} as const;

/** The answers' sentences, for the storefront to show as they are. */
export const newsletterMessages = {
  subscribed: 'Thank you for subscribing to our newsletter!',
  confirmationSent: 'Almost done: please confirm your subscription with the link we emailed you.',
  confirmed: 'Your subscription is confirmed. Welcome!',
  unsubscribed: 'You have been unsubscribed from our newsletter.',
  disabled: 'The newsletter is not available at the moment.',
  confirmationInvalid: 'This confirmation link is invalid, expired or already used.',
  unsubscribeInvalid: 'This unsubscribe link is invalid.',
} as const;
