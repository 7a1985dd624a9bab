// @ts-check
/**
 * What `npm start` reads before anything else (server/start.js) to know whether the server's
 * bundle is current: the stamp server/bundle.ts writes beside it, naming the files it was built
 * from and their hash. Plain JavaScript, as server/start.js is (it says why).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The bundles' folder and, in it, the stamp of the current one. */
export const BUNDLE_DIR = 'dist/server';
export const STAMP_FILE = 'dist/server/bundle.json';

/**
 * @typedef {object} BundleStamp
 * @property {string} hash the hash of `inputs` when the bundle was built
 * @property {string} entry the bundle's entry module, relative to the checkout's root
 * @property {string[]} inputs the files it was built from, relative to the root (the shop's own
 *   modules, package.json and package-lock.json for the packages)
 */

/**
 * A hash of the files' names and contents, in their order.
 * @param {string} root
 * @param {readonly string[]} files relative to root
 * @param {(file: string) => Uint8Array} [read] a file's contents (by default, as the disk has it)
 * @returns {string}
 */
export function hashFiles(root, files, read = (file) => readFileSync(path.join(root, file))) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(read(file)).update('\0');
  return hash.digest('hex');
}

/**
 * The stamp of the bundle, or null when there is none (or it cannot be read).
 * @param {string} root
 * @returns {BundleStamp | null}
 */
export function readStamp(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The entry module of the bundle (absolute path) when it was built from the files as they are
 * now; null when there is no bundle (or its folder was removed) or one of its files changed or
 * went away.
 * @param {string} root
 * @returns {string | null}
 */
export function currentBundleEntry(root) {
  const stamp = readStamp(root);
  if (!stamp) return null;
  try {
    const entry = path.join(root, stamp.entry);
    return existsSync(entry) && hashFiles(root, stamp.inputs) === stamp.hash ? entry : null;
  } catch {
    // A file it was built from is gone: a source was moved or deleted.
    return null;
  }
}
