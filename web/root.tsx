import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, useRouteError } from 'react-router';
import type { Route } from './+types/root.ts';
import appCss from './app.css?url';
import { InlineScript } from './common/inline-script.tsx';
import { useNonce } from './common/nonce.ts';
import { IMAGE_FALLBACK_SCRIPT } from './storefront/catalog/product-image.tsx';
import { StarsSprite } from './storefront/catalog/stars.tsx';
import { consentKnownScript } from './storefront/tracking/consent.ts';

/** The HTML document. The shop's frame (banner, header, footer and their data) is the layout route routes/frame.tsx. */
export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: appCss },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

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

export default function Root() {
  return <Outlet />;
}

/** Only when the frame itself fails (its own error boundary handles the pages'): a plain page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-20 text-center">
      <title>{status === 404 ? 'Page not found · Stillwater' : 'Something went wrong · Stillwater'}</title>
      <h1 className="font-serif text-4xl text-sage-900">
        {status === 404 ? 'Page not found' : 'Something went wrong'}
      </h1>
      <p className="mt-4 text-stone-600">The page could not be shown right now. Please try again in a moment.</p>
      <a href="/" className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800">
        Return to Home
      </a>
    </main>
  );
}
