import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { silenceConsole } from './common/console.ts';

// Spec: all browser console output is silenced in production, after the originals are saved.
if (import.meta.env.PROD) silenceConsole();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
