import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { silenceConsole } from './common/console.ts';

// Spec: all browser console output is silenced in production, after the originals are saved.
if (import.meta.env.PROD) silenceConsole();

// Spec 7: the marketplace's prices and stock are refreshed once at app start, when the page is idle;
// the server throttles it and answers at once (the work is a background job), so nothing waits for it.
(window.requestIdleCallback ?? setTimeout)(() => fetch('/api/aliexpress/refresh').catch(() => {}));

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
