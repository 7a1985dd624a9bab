/**
 * Where the Chromium of the browser tests and the Lighthouse benchmark is: CHROME_PATH, else the
 * one scripts/ensure-browser.ts unpacked from its npm package (recorded in BROWSER_RECORD), else
 * the system's.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** Where ensure-browser.ts keeps the browser it fetched from the npm registry, and its path. */
export const BROWSER_CACHE = path.resolve(import.meta.dirname, '../node_modules/.cache/stillwater-browser');
export const BROWSER_RECORD = path.join(BROWSER_CACHE, 'path');

export function browserPath(): string {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  if (existsSync(BROWSER_RECORD)) {
    const recorded = readFileSync(BROWSER_RECORD, 'utf8').trim();
    if (recorded && existsSync(recorded)) return recorded;
  }
  return SYSTEM_CHROMIUM;
}
