import { type RouterContextProvider, redirect } from 'react-router';
import { getMe } from '#common/contracts/accounts.ts';
import { apiContext } from '#web/context.ts';
import { afterLogin } from './after-login.ts';

// Loader helpers (server side): browser code imports from after-login.ts, which carries no contracts.

/** The login page with this page as the place to come back to. */
export function loginUrl(url: URL): string {
  return `/login?redirect=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * Loaders of pages for signed-out visitors only: a signed-in user goes on to the page's
 * `redirect` target when the spec's safety rule accepts it, else to the account.
 */
export async function signedOutOnly(request: Request, context: Readonly<RouterContextProvider>) {
  const me = await context.get(apiContext).call(getMe);
  if (me.authenticated) throw redirect(afterLogin(new URL(request.url).searchParams.get('redirect')));
}

/** Loaders of protected pages: a visitor goes to sign in, and comes back here afterwards. */
export async function requireSignedIn(request: Request, context: Readonly<RouterContextProvider>) {
  const me = await context.get(apiContext).call(getMe);
  if (!me.authenticated) throw redirect(loginUrl(new URL(request.url)));
  return me.user;
}

/** Loaders of the back office: a visitor goes to sign in; a signed-in non-admin to the account. */
export async function requireAdmin(request: Request, context: Readonly<RouterContextProvider>) {
  const user = await requireSignedIn(request, context);
  if (!user.isAdmin) throw redirect('/account');
  return user;
}
