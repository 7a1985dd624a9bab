/** `npm run build`: builds the web app (storefront and back office) into build/ and the server's bundle into dist/server/. */
import { ensureServerBundle } from '../server/bundle.ts';
import { ensureWebBuild } from '../server/http/web-build.ts';

ensureWebBuild({ force: true });
await ensureServerBundle({ force: true });
