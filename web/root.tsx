import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import { getMe } from '#common/contracts/accounts.ts';
import { listCategories } from '#common/contracts/catalog.ts';
import { getPublicSettings } from '#common/contracts/settings.ts';
import { settingsDefaults } from '#common/settings-defaults.ts';
import type { Route } from './+types/root.ts';
import appCss from './app.css?url';
import { InlineScript } from './common/inline-script.tsx';
import { useNonce } from './common/nonce.ts';
import { apiContext, shopContext } from './context.ts';
import { cacheUser } from './storefront/account/user-cache.ts';
import { IMAGE_FALLBACK_SCRIPT } from './storefront/catalog/product-image.tsx';
import { StarsSprite } from './storefront/catalog/stars.tsx';
import { Banner } from './storefront/layout/banner.tsx';
import { Footer } from './storefront/layout/footer.tsx';
import { Header } from './storefront/layout/header.tsx';
import { consentKnownScript } from './storefront/tracking/consent.ts';
import { CookieBanner } from './storefront/tracking/cookie-banner.tsx';
import { usePageTracking } from './storefront/tracking/page-tracking.ts';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: appCss },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

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

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    // The head's consent script marks <html> before hydration (data-consent-known).
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3c5343" />
        <Meta />
        <Links />
        {/* Run while the document is parsed: image fallbacks, and hiding the cookie banner when answered. */}
        <InlineScript nonce={nonce} code={import.meta.env.SSR ? IMAGE_FALLBACK_SCRIPT : ''} />
        <InlineScript nonce={nonce} code={import.meta.env.SSR ? consentKnownScript() : ''} />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        <StarsSprite />
        {children}
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
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

export default function App({ loaderData }: Route.ComponentProps) {
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
  const data = useRouteLoaderData<typeof loader>('root');
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
