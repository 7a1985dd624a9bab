/**
 * First-load JavaScript of a page: every script the server-rendered HTML makes the browser load
 * before hydration (script src, modulepreload, the inline module script's imports, and their
 * static imports), fetched once each and measured raw, as the server sends it, and gzip -9.
 * Also checks that the HTML is compressed and that no admin code reaches the storefront.
 */

import type { IncomingHttpHeaders } from 'node:http';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, constants, gunzipSync, gzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import { nextClientAddress } from './client-address.ts';

// What Chromium sends, and a mobile Chromium's user agent (the server streams to browsers).
const browserEncodings = 'gzip, deflate, br, zstd';
const browserAgent =
  'Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36';

export type ScriptSize = {
  path: string;
  /** How the page reaches it: script src, modulepreload, inline import, or the file importing it. */
  foundIn: string;
  rawBytes: number;
  /** As the server sends it to `accept-encoding: gzip` (files under the compression threshold go raw). */
  gzipBytes: number;
  /** gzip level 9 of the raw file, for comparison with other tools. */
  gzip9Bytes: number;
  /** As the server sends it to a browser's accept-encoding (brotli, as the build compressed it). */
  browserBytes: number;
  encodings: { gzip: string; browser: string };
};

export type Totals = { files: number; rawBytes: number; gzipBytes: number; gzip9Bytes: number; browserBytes: number };

export type FirstLoadJs = {
  path: string;
  status: number;
  html: {
    rawBytes: number;
    /** As sent to a browser's accept-encoding (zstd, compressed as it is sent). */
    browser: { encoding: string; bytes: number };
    gzip: { encoding: string; bytes: number };
    /** zstd or br when a browser's encodings are asked for, gzip when gzip is. */
    compressed: boolean;
  };
  /** Route ids in the page's own manifest (the route modules it loads). */
  routes: string[];
  scripts: ScriptSize[];
  total: Totals;
  /** Files loaded through a static import that the HTML does not modulepreload (a request waterfall). */
  notPreloaded: string[];
  admin: { adminRoutesInBuild: string[] | null; findings: string[] };
  /** Scripts of the first load that carry Stripe's code (named for it, or loading js.stripe.com). */
  stripe: string[];
};

type RawResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer };
type RouteEntry = { id: string; module: string; imports?: string[] };
type RouteManifest = {
  entry: { module: string; imports?: string[] };
  routes: Record<string, RouteEntry>;
  url?: string;
};
type ScriptRef = { path: string; foundIn: string };
type LoadedScript = { size: ScriptSize; code: string };

export async function measureFirstLoadJs(baseUrl: string, pagePath: string): Promise<FirstLoadJs> {
  const pageUrl = new URL(pagePath, baseUrl);
  const [browserPage, gzipPage] = await Promise.all([fetchRaw(pageUrl, browserEncodings), fetchRaw(pageUrl, 'gzip')]);
  const html = decode(browserPage).toString('utf8');
  const pageManifest = readPageManifest(html);
  const loaded = await loadScripts(pageUrl, scriptReferences(html));
  const preloaded = new Set(modulePreloads(html).map((href) => new URL(href, pageUrl).pathname));
  const buildManifest = pageManifest?.url ? await fetchBuildManifest(new URL(pageManifest.url, pageUrl)) : null;

  return {
    path: pagePath,
    status: browserPage.status,
    html: htmlCompression(browserPage, gzipPage),
    routes: pageManifest ? Object.keys(pageManifest.routes) : [],
    scripts: loaded.map((script) => script.size),
    total: totals(loaded.map((script) => script.size)),
    notPreloaded: loaded
      .filter((script) => script.size.foundIn.startsWith('static import') && !preloaded.has(script.size.path))
      .map((script) => script.size.path),
    admin: adminCheck(pageManifest, buildManifest, loaded),
    stripe: loaded
      .filter((script) => /stripe/i.test(script.size.path) || script.code.includes('js.stripe.com'))
      .map((script) => script.size.path),
  };
}

function fetchRaw(url: URL, acceptEncoding: string): Promise<RawResponse> {
  const headers = {
    'accept-encoding': acceptEncoding,
    'user-agent': browserAgent,
    'x-forwarded-for': nextClientAddress(),
  };
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function encodingOf(response: RawResponse): string {
  return String(response.headers['content-encoding'] ?? 'identity');
}

function decode(response: RawResponse): Buffer {
  const encoding = encodingOf(response);
  if (encoding === 'zstd') return zstdDecompressSync(response.body);
  if (encoding === 'br') return brotliDecompressSync(response.body);
  if (encoding === 'gzip') return gunzipSync(response.body);
  if (encoding === 'deflate') return inflateSync(response.body);
  return response.body;
}

function htmlCompression(browserPage: RawResponse, gzipPage: RawResponse): FirstLoadJs['html'] {
  const browser = { encoding: encodingOf(browserPage), bytes: browserPage.body.length };
  const gzip = { encoding: encodingOf(gzipPage), bytes: gzipPage.body.length };
  return {
    rawBytes: decode(browserPage).length,
    browser,
    gzip,
    compressed: ['zstd', 'br'].includes(browser.encoding) && gzip.encoding === 'gzip',
  };
}

function tagAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/\s([\w:-]+)(?:="([^"]*)")?/g)) {
    const [, name, value] = match;
    if (name) attributes[name.toLowerCase()] = value ?? '';
  }
  return attributes;
}

function modulePreloads(html: string): string[] {
  return [...html.matchAll(/<link\b[^>]*>/gi)]
    .map((match) => tagAttributes(match[0]))
    .filter((attributes) => attributes.rel === 'modulepreload' && attributes.href)
    .map((attributes) => attributes.href ?? '');
}

/** Scripts the HTML itself starts loading: script src, modulepreload, and the inline module scripts' imports. */
function scriptReferences(html: string): ScriptRef[] {
  const refs: ScriptRef[] = modulePreloads(html).map((href) => ({ path: href, foundIn: 'modulepreload' }));
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = tagAttributes(match[1] ?? '');
    const code = match[2] ?? '';
    if (attributes.src) refs.push({ path: attributes.src, foundIn: 'script src' });
    else if (attributes.type === 'module') {
      // The inline script's top-level dynamic import runs at once: it is first-load code too.
      for (const specifier of [...staticImports(code), ...dynamicImports(code)]) {
        refs.push({ path: specifier, foundIn: 'inline module script' });
      }
    }
  }
  return refs;
}

function isModulePath(specifier: string): boolean {
  return /^(\.{1,2})?\//.test(specifier) && /\.m?js(\?.*)?$/.test(specifier);
}

/** `import … from "x"`, `import "x"` and `export … from "x"` in (minified) module code. */
function staticImports(code: string): string[] {
  const pattern = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
  return [...code.matchAll(pattern)].map((match) => match[1] ?? '').filter(isModulePath);
}

function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)]
    .map((match) => match[1] ?? '')
    .filter(isModulePath);
}

/** Fetches each referenced script once, then the files they import statically, until none is new. */
async function loadScripts(pageUrl: URL, refs: ScriptRef[]): Promise<LoadedScript[]> {
  const seen = new Set<string>();
  const loaded: LoadedScript[] = [];
  let queue = refs.map((ref) => ({ url: new URL(ref.path, pageUrl), foundIn: ref.foundIn }));
  while (queue.length > 0) {
    const fresh = queue.filter(({ url }) => {
      if (url.origin !== pageUrl.origin || seen.has(url.pathname)) return false;
      seen.add(url.pathname);
      return true;
    });
    const batch = await Promise.all(fresh.map(({ url, foundIn }) => loadScript(url, foundIn)));
    loaded.push(...batch);
    queue = batch.flatMap(({ size, code }) =>
      staticImports(code).map((specifier) => ({
        url: new URL(specifier, new URL(size.path, pageUrl)),
        foundIn: `static import in ${size.path}`,
      })),
    );
  }
  return loaded;
}

async function loadScript(url: URL, foundIn: string): Promise<LoadedScript> {
  const [gzipResponse, browserResponse] = await Promise.all([fetchRaw(url, 'gzip'), fetchRaw(url, browserEncodings)]);
  if (gzipResponse.status !== 200) throw new Error(`${url.pathname} answered ${gzipResponse.status}`);
  const raw = decode(gzipResponse);
  return {
    code: raw.toString('utf8'),
    size: {
      path: url.pathname,
      foundIn,
      rawBytes: raw.length,
      gzipBytes: gzipResponse.body.length,
      gzip9Bytes: gzipSync(raw, { level: constants.Z_BEST_COMPRESSION }).length,
      browserBytes: browserResponse.body.length,
      encodings: { gzip: encodingOf(gzipResponse), browser: encodingOf(browserResponse) },
    },
  };
}

function totals(sizes: ScriptSize[]): Totals {
  const sum = (pick: (size: ScriptSize) => number) => sizes.reduce((total, size) => total + pick(size), 0);
  return {
    files: sizes.length,
    rawBytes: sum((size) => size.rawBytes),
    gzipBytes: sum((size) => size.gzipBytes),
    gzip9Bytes: sum((size) => size.gzip9Bytes),
    browserBytes: sum((size) => size.browserBytes),
  };
}

/** The route manifest React Router inlines in the page: only the routes this page renders. */
function readPageManifest(html: string): RouteManifest | null {
  const match = /window\.__reactRouterManifest\s*=\s*(\{[\s\S]*?\});\s*window\.__reactRouterRouteModules/.exec(html);
  if (!match?.[1]) return null;
  try {
    return JSON.parse(match[1]) as RouteManifest;
  } catch {
    return null;
  }
}

/** The build's whole route manifest (every route, admin included), which the page names by URL. */
async function fetchBuildManifest(url: URL): Promise<RouteManifest | null> {
  const response = await fetchRaw(url, 'gzip');
  if (response.status !== 200) return null;
  const code = decode(response).toString('utf8');
  const json = code.replace(/^\s*window\.__reactRouterManifest\s*=\s*/, '').replace(/;\s*$/, '');
  try {
    return JSON.parse(json) as RouteManifest;
  } catch {
    return null;
  }
}

/** Admin route modules live in web/routes/admin* and web/admin/, so their ids start with admin. */
function isAdminRoute(route: RouteEntry): boolean {
  return /^(routes\/)?admin/.test(route.id) || path.basename(route.module).startsWith('admin');
}

function routeFiles(route: RouteEntry): string[] {
  return [route.module, ...(route.imports ?? [])];
}

/** Files that only admin routes use: a storefront page loading one loads admin code. */
function adminOnlyFiles(manifest: RouteManifest): Set<string> {
  const routes = Object.values(manifest.routes);
  const storefront = new Set([
    manifest.entry.module,
    ...(manifest.entry.imports ?? []),
    ...routes.filter((route) => !isAdminRoute(route)).flatMap(routeFiles),
  ]);
  return new Set(
    routes
      .filter(isAdminRoute)
      .flatMap(routeFiles)
      .filter((file) => !storefront.has(file)),
  );
}

function adminCheck(
  pageManifest: RouteManifest | null,
  buildManifest: RouteManifest | null,
  loaded: LoadedScript[],
): FirstLoadJs['admin'] {
  const findings: string[] = [];
  if (!pageManifest) findings.push('the page has no React Router manifest to check');
  for (const route of Object.values(pageManifest?.routes ?? {})) {
    if (isAdminRoute(route)) findings.push(`the page's manifest loads the admin route ${route.id}`);
  }
  const adminFiles = buildManifest ? adminOnlyFiles(buildManifest) : new Set<string>();
  for (const { size, code } of loaded) {
    if (/\/admin/i.test(size.path) || path.basename(size.path).startsWith('admin')) {
      findings.push(`${size.path} is an admin chunk`);
    }
    if (adminFiles.has(size.path)) findings.push(`${size.path} is used only by admin routes`);
    const mention = /routes\/admin|["'/]admin[\w.-]*\.js["']/.exec(code);
    if (mention) findings.push(`${size.path} refers to admin code (${mention[0]})`);
    for (const file of adminFiles) {
      if (code.includes(path.basename(file))) findings.push(`${size.path} refers to the admin chunk ${file}`);
    }
  }
  const adminRoutesInBuild = buildManifest
    ? Object.values(buildManifest.routes)
        .filter(isAdminRoute)
        .map((route) => route.id)
    : null;
  return { adminRoutesInBuild, findings };
}
