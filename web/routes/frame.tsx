import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  Outlet,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import { getMe } from '#common/contracts/accounts.ts';
import { listCategories } from '#common/contracts/catalog.ts';
import { getPublicSettings } from '#common/contracts/settings.ts';
import { settingsDefaults } from '#common/settings-defaults.ts';
import { apiContext, shopContext } from '#web/context.ts';
import { cacheUser } from '#web/storefront/account/user-cache.ts';
import { Banner } from '#web/storefront/layout/banner.tsx';
import { Footer } from '#web/storefront/layout/footer.tsx';
import { Header } from '#web/storefront/layout/header.tsx';
import { CookieBanner } from '#web/storefront/tracking/cookie-banner.tsx';
import { usePageTracking } from '#web/storefront/tracking/page-tracking.ts';
import type { Route } from './+types/frame.ts';

/**
 * The shop's frame around every page, the back office's included (spec: the shared banner, header
 * and footer): the signed-in user, the navigation's categories and the public settings.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const api = context.get(apiContext);
  const [me, { categories }, settings] = await Promise.all([
    api.call(getMe),
    api.call(listCategories),
    api.call(getPublicSettings),
  ]);
  const shop = context.get(shopContext);
  return {
    user: me.authenticated ? me.user : null,
    categories,
    settings,
    origin: shop.publicUrl,
    payments: shop.payments,
    adPixelId: shop.adPixelId,
  };
}

/** The back office's own navigations (its tabs are query parameters) need none of the frame's data again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const inAdmin = (url: URL) => url.pathname === '/admin' || url.pathname.startsWith('/admin/');
  if (!formMethod && inAdmin(currentUrl) && inAdmin(nextUrl)) return false;
  return defaultShouldRevalidate;
}

/** Spec: the page scrolls to the top on every path change. */
function useScrollToTopOnPathChange() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is what triggers the scroll.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}

/**
 * Paths whose loaders check the session (spec: 'Checking authentication...' while that runs): the
 * account, the back office and the write-review page (/product/{slug}/review/new).
 */
const GUARDED = /^\/(?:(?:account|admin)(?:\/|$)|product\/[^/]+\/review\/new\/?$)/;

export default function Frame({ loaderData }: Route.ComponentProps) {
  useScrollToTopOnPathChange();
  const { user, categories, settings, adPixelId } = loaderData;
  const trackingFacts = { userId: user?.id ?? null, adPixelId };
  usePageTracking(trackingFacts);
  const navigation = useNavigation();
  const checking = navigation.state === 'loading' && GUARDED.test(navigation.location.pathname);
  // The browser's cached user follows the server's answer on every load.
  useEffect(() => cacheUser(user), [user]);
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <CookieBanner facts={trackingFacts} />
      <Banner freeShippingThreshold={settings.freeShippingThreshold} />
      <Header user={user} categories={categories} />
      <main id="main" className="flex-1">
        {checking ? (
          <p role="status" className="mx-auto max-w-7xl px-4 pt-6 text-sm text-stone-600 sm:px-6">
            Checking authentication...
          </p>
        ) : null}
        <Outlet />
      </main>
      <Footer categories={categories} settings={settings} />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('frame');
  const settings = data?.settings ?? settingsDefaults;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <>
      <Banner freeShippingThreshold={settings.freeShippingThreshold} />
      <Header user={data?.user ?? null} categories={data?.categories ?? []} />
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-20 text-center">
        <title>{status === 404 ? 'Page not found · Stillwater' : 'Something went wrong · Stillwater'}</title>
        <h1 className="font-serif text-4xl text-sage-900">
          {status === 404 ? 'Page not found' : 'Something went wrong'}
        </h1>
        <p className="mt-4 text-stone-600">
          {status === 404
            ? 'We could not find that page.'
            : 'The page could not be shown right now. Please try again in a moment.'}
        </p>
        <a href="/" className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800">
          Return to Home
        </a>
      </main>
      <Footer categories={data?.categories ?? []} settings={settings} />
    </>
  );
}
