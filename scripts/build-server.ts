/** Builds the server's bundle when its sources changed (server/start.js runs this when they did). */
import { ensureServerBundle } from '../server/bundle.ts';

await ensureServerBundle();
