import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { silenceConsole } from './common/console.ts';

// Spec: all browser console output is silenced in production, after the originals are saved.
if (import.meta.env.PROD) silenceConsole();

// Spec 7: the marketplace's prices and stock are refreshed once at app start, when the page is idle;
// the server throttles it and answers at once (the work is a background job), so nothing waits for it.
(window.requestIdleCallback ?? setTimeout)(() => fetch('/api/aliexpress/refresh').catch(() => {}));

/**
 * The router's first render throws a promise (before any hook) until it has decoded the server's
 * loader data from the page. React treats the root as a Suspense boundary; the production build
 * renders with Preact (vite.config.ts), whose boundary at the document's root would keep the
 * doctype instead of the server's <html>. So the data is decoded before hydration starts.
 */
async function serverDataDecoded(): Promise<void> {
  try {
    HydratedRouter({});
  } catch (pending) {
    if (pending instanceof Promise) await pending;
  }
}

serverDataDecoded().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
