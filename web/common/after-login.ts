import { REDIRECT_FALLBACK, safeRedirect } from '#common/redirect-safety.ts';

/** Where to go after signing in: the `redirect` target when the spec's safety rule accepts it, else the account. */
export function afterLogin(redirect: string | null): string {
  const target = safeRedirect(redirect);
  return target === REDIRECT_FALLBACK ? '/account' : target;
}
