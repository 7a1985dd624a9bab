import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * The browser build renders with Preact's React compatibility layer instead of react-dom: 5 kB
 * instead of 62 kB gzip on every first load (issue 15). The server still renders with React, and
 * the dev server keeps React for Fast Refresh. See docs/decisions.md.
 */
const preactInBrowser: Record<string, string> = {
  react: fileURLToPath(new URL('./web/browser/react-on-preact.ts', import.meta.url)),
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
  scheduler: 'preact/compat/scheduler',
};

function browserRendersWithPreact(): Plugin {
  return {
    name: 'stillwater:browser-renders-with-preact',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const target = this.environment.name === 'client' ? preactInBrowser[source] : undefined;
      if (!target) return null;
      return this.resolve(target, importer, { ...options, skipSelf: true });
    },
  };
}

const headlessUiAndItsDependencies = [
  /^@headlessui\//,
  /^@floating-ui\//,
  /^@react-aria\//,
  /^@react-stately\//,
  /^@react-types\//,
  /^@internationalized\//,
  /^@swc\/helpers/,
  /^@tanstack\/react-virtual/,
  /^react-aria$/,
  /^react-stately$/,
  /^aria-hidden$/,
  /^clsx$/,
  /^use-sync-external-store/,
];

export default defineConfig({
  plugins: [browserRendersWithPreact(), tailwindcss(), reactRouter()],
  // The server build's entry is our factory, so React Router's context keys live in the bundle (see server/web.ts).
  environments: {
    ssr: {
      build: { rolldownOptions: { input: './server/react-router-entry.ts' } },
      // The back office's tabs come from Headless UI, whose dependencies load some 190 modules at
      // every start (issue 15, cold start): bundled, only the few components used are loaded.
      resolve: { noExternal: headlessUiAndItsDependencies },
    },
  },
  server: { hmr: { overlay: true } },
  build: {
    // Few files at first load (issue 15): on a slow connection each round of requests costs a
    // round trip. 'shared' holds the framework every page needs (Preact, React Router) and the
    // small modules the back office shares with every storefront page (the API client, icons,
    // constants); 'storefront' holds what two or more storefront pages share. Left alone, Rolldown
    // made some twenty files of the first load, half of them under 1 kB.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              test: /node_modules[\\/](react-dom[\\/]index\.js|preact[\\/]|react-router[\\/])|[\\/]web[\\/]common[\\/](api-client|browser-api|icons)\.|[\\/]common[\\/](settings-defaults|constants|money)\.ts/,
            },
            {
              name: 'storefront',
              test: /[\\/]web[\\/]storefront[\\/]|[\\/]common[\\/]images\.ts/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});
