import { useEffect } from 'react';
import { Links, Meta, Outlet, Scripts } from 'react-router';
import type { Route } from './+types/root.ts';
import storefrontCss from './app.css?inline';
import { InlineScript } from './common/inline-script.tsx';
import { useNonce } from './common/nonce.ts';
import { IMAGE_FALLBACK_SCRIPT } from './storefront/catalog/product-image.tsx';
import { StarsSprite } from './storefront/catalog/stars.tsx';
import { consentKnownScript } from './storefront/tracking/consent.ts';

/**
 * The HTML document. The shop's frame (banner, header, footer and their data) is the layout route
 * routes/frame.tsx, whose error boundary also answers for its own loader's failures.
 */
export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // The page is the app's from here on (the browser tests wait for it: whichever renderer hydrated).
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return (
    // The head's consent script marks <html> before hydration (data-consent-known).
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3c5343" />
        <Meta />
        <StorefrontStyles />
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

/**
 * The storefront's stylesheet, in the head rather than linked: first paint waits for no request
 * (issue 15; docs/decisions.md weighs it against a cached file). Like InlineScript, the CSS ships in
 * the HTML only, and hydration leaves the element's content as the server wrote it.
 */
function StorefrontStyles() {
  const css = import.meta.env.SSR ? storefrontCss : '';
  // biome-ignore lint/security/noDangerouslySetInnerHtml: this app's own built stylesheet, no outside input.
  return <style suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css }} />;
}

export default function Root() {
  return <Outlet />;
}
