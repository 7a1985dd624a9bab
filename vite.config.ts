import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // The server build's entry is our factory, so React Router's context keys live in the bundle (see server/web.ts).
  environments: { ssr: { build: { rolldownOptions: { input: './server/react-router-entry.ts' } } } },
  server: { hmr: { overlay: true } },
  build: {
    // The back office shares a few small modules with every storefront page (react-dom's portals,
    // the API client, icons, constants). Left alone, Rolldown splits each into a file of its own,
    // which cost the storefront's first load 2 kB; one chunk holds them instead.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              test: /node_modules[\\/]react-dom[\\/]index\.js|[\\/]web[\\/]common[\\/](api-client|browser-api|icons)\.|[\\/]common[\\/](settings-defaults|constants|money)\.ts/,
            },
          ],
        },
      },
    },
  },
});
