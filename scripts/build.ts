/** `npm run build`: builds the web app (storefront and back office) into build/. */
import { ensureWebBuild } from '../server/http/web-build.ts';

ensureWebBuild({ force: true });
