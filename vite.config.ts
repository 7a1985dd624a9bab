import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // The server build's entry is our factory, so React Router's context keys live in the bundle (see server/web.ts).
  environments: { ssr: { build: { rolldownOptions: { input: './server/react-router-entry.ts' } } } },
  server: { hmr: { overlay: true } },
});
