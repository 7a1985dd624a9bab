/**
 * `npm run bench`: builds the web app, serves it on a fresh database, then measures Lighthouse
 * scores, first-load JavaScript and API throughput against the issues' targets. Prints a summary,
 * writes scripts/bench/results/latest.json, and exits 1 when a target is missed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { killAll } from 'chrome-launcher';
import { browserPath } from '../browser-path.ts';
import { type AdminListsBenchResult, adminListsTargets, adminListsText, measureAdminLists } from './admin-lists.ts';
import { checkoutBench, countCheckoutStatements, csrfHeaders, intentBody } from './checkout.ts';
import { nextClientAddress } from './client-address.ts';
import {
  type ColdStartBenchResult,
  coldStartBench,
  coldStartTargets,
  coldStartText,
  measureColdStart,
} from './cold-start.ts';
import { type DashboardBenchResult, dashboardTargets, dashboardText, measureDashboard } from './dashboard.ts';
import { measureFirstLoadJs } from './first-load-js.ts';
import { type ImageUploadBenchResult, imageUploadTargets, measureImageUpload } from './image-upload.ts';
import { measureLighthouse } from './lighthouse.ts';
import { type LiveEventsBenchResult, liveEventsTargets, liveEventsText, measureLiveEvents } from './live-events.ts';
import { browserHeaders, fetchAnswer, type LoadResult, measureLoad, withBareServer } from './load.ts';
import { measurePostgresMemory } from './memory.ts';
import {
  measureOrdersExport,
  type OrdersExportBenchResult,
  ordersExportTargets,
  ordersExportText,
} from './orders-export.ts';
import { root, steadyRssReported, stopAllProcesses } from './processes.ts';
import { type BenchResults, evaluateTargets, resultsFile, type StageError, summary, writeResults } from './report.ts';
import { addReviews, reviewEndpoints, reviewsAtScale, signedInCookies } from './reviews.ts';
import { assertShopRunning, buildWebApp, type Shop, startSeededShop, startShop, stopShop } from './shop.ts';

const pages = ['/', '/products', '/product/desktop-fountain', '/product/desktop-fountain/reviews', '/cart'];
const productPage = '/product/desktop-fountain';
/** Pages that ask search engines not to index them, on purpose (a shopper's own cart). */
const unindexedPages = new Set(['/cart']);
const apiEndpoints = [
  { name: 'GET /api/products/desktop-fountain', path: '/api/products/desktop-fountain' },
  { name: 'GET /api/products?page=1&limit=24', path: '/api/products?page=1&limit=24' },
];
/** A page view as a browser sends it (analytics issue): a visitor's browser, not a bot, so it is recorded. */
const pageViewEndpoint = 'POST /api/analytics/pageview';
const browserUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const sectionNames = [
  'js',
  'lighthouse',
  'api',
  'checkout',
  'reviews',
  'dashboard',
  'live-events',
  'orders-export',
  'admin-lists',
  'image-upload',
  'memory-pg',
  'cold-start',
] as const;
type Section = (typeof sectionNames)[number];
/** `npm run bench -- reviews` measures only the sections named; none named measures all. */
const sections = parseSections(process.argv.slice(2));
const settings = {
  sections,
  pages,
  lighthouseRuns: 5,
  load: { durationSeconds: 10, connections: 50, warmupSeconds: 2 },
  reviews: reviewsAtScale,
  checkout: checkoutBench,
  coldStart: coldStartBench,
};
/** The shop while it serves, for the interrupt handler. */
let runningShop: Shop | null = null;
let interrupted = false;

function parseSections(args: string[]): Section[] {
  const unknown = args.filter((arg) => !sectionNames.includes(arg as Section));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown section ${unknown.join(', ')}; the sections are ${sectionNames.join(', ')}\n`);
    process.exit(2);
  }
  return args.length > 0 ? (args as Section[]) : [...sectionNames];
}

/** Runs one step; a failure is recorded (and misses a target) instead of ending the run. */
async function stage<T>(name: string, errors: StageError[], run: () => Promise<T> | T): Promise<T | null> {
  if (interrupted) return null;
  process.stdout.write(`\n▸ ${name}\n`);
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${name} failed: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
    errors.push({ stage: name, message });
    return null;
  }
}

function machineInfo(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    availableParallelism: os.availableParallelism(),
    cpuModel: cpus[0]?.model ?? null,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.arch()} ${os.release()}`,
    node: process.versions.node,
    lighthouse: packageVersion('lighthouse'),
    autocannon: packageVersion('autocannon'),
    chromium: browserPath(),
    // Other work on the machine (tests running alongside) makes the numbers noisy.
    loadAverageAtStart: os.loadavg().map((value) => Number(value.toFixed(2))),
  };
}

function packageVersion(name: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'));
    return typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    return null;
  }
}

function gitState(): BenchResults['git'] {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git('rev-parse', 'HEAD');
  const status = git('status', '--porcelain');
  return {
    commit: head.status === 0 ? head.stdout.trim() : null,
    uncommittedChanges: status.status === 0 ? status.stdout.trim() !== '' : null,
  };
}

/** A few requests per page first, so the first measured render is not the server's first. */
async function warmUp(baseUrl: string): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    for (const page of pages) {
      const response = await fetch(new URL(page, baseUrl), { headers: { 'x-forwarded-for': nextClientAddress() } });
      await response.arrayBuffer();
    }
  }
}

/** A step on the shop: refused when the server is gone, and failed when it died during the step. */
function onShop<T>(shop: Shop, run: () => Promise<T>): () => Promise<T> {
  return async () => {
    assertShopRunning(shop);
    const result = await run();
    assertShopRunning(shop);
    return result;
  };
}

async function measurePages(shop: Shop, results: BenchResults): Promise<void> {
  const { errors } = results;
  await stage(
    'warm-up',
    errors,
    onShop(shop, () => warmUp(shop.url)),
  );
  if (sections.includes('js')) await measureFirstLoad(shop, results);
  if (sections.includes('lighthouse')) await measureLighthouseScores(shop, results);
}

async function measureFirstLoad(shop: Shop, results: BenchResults): Promise<void> {
  const { errors } = results;
  for (const page of pages) {
    const measured = await stage(
      `first-load JS ${page}`,
      errors,
      onShop(shop, () => measureFirstLoadJs(shop.url, page)),
    );
    if (measured) results.firstLoadJs.push(measured);
  }
}

async function measureLighthouseScores(shop: Shop, results: BenchResults): Promise<void> {
  const { errors } = results;
  for (const page of pages) {
    const measured = await stage(
      `Lighthouse ${page}`,
      errors,
      onShop(shop, () =>
        measureLighthouse(shop.url, page, settings.lighthouseRuns, {
          checkServer: () => assertShopRunning(shop),
          indexable: !unindexedPages.has(page),
        }),
      ),
    );
    if (measured) results.lighthouse.push(measured);
  }
}

async function measureApi(shop: Shop, results: BenchResults): Promise<void> {
  const { errors } = results;
  results.machine.loadAverageBeforeLoadTest = os.loadavg().map((value) => Number(value.toFixed(2)));
  // Every target, the bare route included, is asked as a browser asks (Accept-Encoding).
  results.load.bare = await stage('load: bare Fastify route', errors, () =>
    withBareServer((url, pid) =>
      measureLoad('bare Fastify route', url, settings.load, { headers: browserHeaders }, pid),
    ),
  );
  const share = (result: LoadResult) => {
    const bare = results.load.bare?.requestsPerSecond;
    return { ...result, ratioToBare: bare ? result.requestsPerSecond / bare : null };
  };
  results.load.sameAnswer = [];
  for (const endpoint of apiEndpoints) {
    const url = new URL(endpoint.path, shop.url).href;
    const measured = await stage(
      `load: ${endpoint.name}`,
      errors,
      onShop(shop, () => measureLoad(endpoint.name, url, settings.load, { headers: browserHeaders }, shop.process.pid)),
    );
    if (measured) results.load.endpoints.push(share(measured));
    // Right after the endpoint, so both meet the machine in the same state.
    const sameAnswer = await stage(`load: the bare route sending ${endpoint.name}'s answer`, errors, async () => {
      const answer = await fetchAnswer(url);
      const coding = answer.encoding ? ` ${answer.encoding}` : '';
      const name = `bare route sending ${endpoint.name}'s answer (${answer.body.length} B${coding})`;
      return withBareServer(
        (bareUrl, pid) => measureLoad(name, bareUrl, settings.load, { headers: browserHeaders }, pid),
        answer,
      );
    });
    if (sameAnswer) results.load.sameAnswer.push(share(sameAnswer));
  }
  const pageViews = await stage(
    `load: ${pageViewEndpoint}`,
    errors,
    onShop(shop, async () =>
      measureLoad(
        pageViewEndpoint,
        new URL('/api/analytics/pageview', shop.url).href,
        settings.load,
        {
          method: 'POST',
          headers: { ...browserHeaders, ...(await csrfHeaders(shop.url)), 'user-agent': browserUserAgent },
          body: JSON.stringify({ page: '/products', cookiesAccepted: false, sessionId: 'bench-session-0001' }),
        },
        shop.process.pid,
      ),
    ),
  );
  if (pageViews) results.load.endpoints.push(share(pageViews));
  results.load.shopRssBytes = await stage('memory: the shop after the API load', errors, () => {
    assertShopRunning(shop);
    return shop.process.pid === undefined
      ? null
      : steadyRssReported(shop.process.pid, 'the shop on PGlite after the load');
  });
}

/** The payment-intent call under load: each request prices the cart and creates a payment. */
async function measureCheckoutLoad(shop: Shop, results: BenchResults): Promise<void> {
  const name = 'POST /api/create-or-update-payment-intent';
  const measured = await stage(
    `load: ${name}`,
    results.errors,
    onShop(shop, async () => {
      const request = {
        method: 'POST' as const,
        headers: await csrfHeaders(shop.url),
        body: await intentBody(shop.url, checkoutBench.product),
      };
      return measureLoad(
        name,
        new URL('/api/create-or-update-payment-intent', shop.url).href,
        checkoutBench.load,
        request,
        shop.process.pid,
      );
    }),
  );
  results.checkout = { load: measured, statements: null };
}

/** 100,000 reviews written into the stopped shop's database, then the shop again, under load. */
async function measureReviews(dataDir: string, results: BenchResults): Promise<void> {
  const { errors } = results;
  const { product, reviews: count, load } = reviewsAtScale;
  const writeSeconds = await stage(`reviews: write ${count} reviews on ${product}`, errors, () =>
    addReviews(dataDir, product, count),
  );
  const shop =
    writeSeconds === null ? null : await stage('reviews: start the shop again', errors, () => startShop({ dataDir }));
  if (!shop) {
    await rm(dataDir, { recursive: true, force: true });
    return;
  }
  runningShop = shop;
  results.reviews = { product, reviewCount: count, writeSeconds, loads: [] };
  try {
    const cookie = await stage(
      'reviews: sign in a shopper',
      errors,
      onShop(shop, () => signedInCookies(shop.url)),
    );
    for (const endpoint of reviewEndpoints(product)) {
      const as: { who: string; headers: Record<string, string> }[] = [
        { who: 'visitor', headers: {} },
        ...(cookie ? [{ who: 'signed in', headers: { cookie } }] : []),
      ];
      for (const { who, headers } of as) {
        const name = `${endpoint.name} (${who})`;
        const measured = await stage(
          `load: ${name}`,
          errors,
          onShop(shop, () =>
            measureLoad(name, new URL(endpoint.path, shop.url).href, load, { headers }, shop.process.pid),
          ),
        );
        if (measured) results.reviews.loads.push(measured);
      }
    }
  } finally {
    runningShop = null;
    await stopShop(shop);
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  const results: BenchResults = {
    timestamp: new Date().toISOString(),
    durationSeconds: 0,
    machine: machineInfo(),
    git: gitState(),
    settings,
    firstLoadJs: [],
    lighthouse: [],
    load: { bare: null, endpoints: [] },
    reviews: null,
    checkout: null,
    errors: [],
  };

  const built = await stage('build the web app', results.errors, () => {
    buildWebApp();
    return true;
  });
  // These sections run their own shops: the embedded one is for the other sections.
  const ownShops: Section[] = [
    'dashboard',
    'live-events',
    'orders-export',
    'admin-lists',
    'image-upload',
    'memory-pg',
    'cold-start',
  ];
  const embeddedSections = sections.some((section) => !ownShops.includes(section));
  const shop =
    built && embeddedSections
      ? await stage('start the shop (seeded by a first start)', results.errors, () => startSeededShop())
      : null;
  if (shop) {
    runningShop = shop;
    const checkoutNext = sections.includes('checkout');
    const reviewsNext = sections.includes('reviews');
    try {
      if (sections.includes('js') || sections.includes('lighthouse')) await measurePages(shop, results);
      if (sections.includes('api')) await measureApi(shop, results);
      if (checkoutNext) await measureCheckoutLoad(shop, results);
    } finally {
      runningShop = null;
      await stopShop(shop, { keepData: checkoutNext || reviewsNext });
    }
    if (checkoutNext) {
      const counted = await stage('checkout: count the SQL statements of one checkout', results.errors, () =>
        countCheckoutStatements(shop.dataDir, checkoutBench.product),
      );
      results.checkout = { ...(results.checkout ?? { load: null }), statements: counted };
    }
    if (reviewsNext) await measureReviews(shop.dataDir, results);
    else if (checkoutNext) await rm(shop.dataDir, { recursive: true, force: true });
  }

  let dashboard: DashboardBenchResult | null = null;
  if (built && sections.includes('dashboard')) {
    dashboard = await stage('dashboard at scale on PostgreSQL', results.errors, () => measureDashboard());
  }

  let liveEvents: LiveEventsBenchResult | null = null;
  if (built && sections.includes('live-events')) {
    liveEvents = await stage('live events: 1,000 open admin streams', results.errors, () => measureLiveEvents());
  }

  let ordersExport: OrdersExportBenchResult | null = null;
  if (built && sections.includes('orders-export')) {
    ordersExport = await stage('orders export: 100,000 orders on PGlite', results.errors, () => measureOrdersExport());
  }

  let adminLists: AdminListsBenchResult | null = null;
  if (built && sections.includes('admin-lists')) {
    adminLists = await stage('admin lists at 100,000 rows on PostgreSQL', results.errors, () => measureAdminLists());
  }

  let imageUpload: ImageUploadBenchResult | null = null;
  if (built && sections.includes('image-upload')) {
    imageUpload = await stage('image upload: a 4,000 × 3,000 JPEG', results.errors, () => measureImageUpload());
  }

  if (built && sections.includes('memory-pg')) {
    results.load.postgresShopRssBytes = await stage(
      'memory: the shop on PostgreSQL after the API load',
      results.errors,
      () => measurePostgresMemory(apiEndpoints, settings.load),
    );
  }

  let coldStart: ColdStartBenchResult | null = null;
  if (built && sections.includes('cold-start')) {
    coldStart = await stage('cold start on an existing data folder', results.errors, () => measureColdStart());
  }

  // An interrupted run records nothing: latest.json keeps the last complete run.
  if (interrupted) return 130;
  results.durationSeconds = (performance.now() - started) / 1000;
  const targets = [
    ...evaluateTargets(
      results,
      productPage,
      apiEndpoints.map((endpoint) => endpoint.name),
      pageViewEndpoint,
    ),
    ...(sections.includes('dashboard') ? dashboardTargets(dashboard) : []),
  ];
  if (dashboard) {
    Object.assign(results, { dashboard });
    process.stdout.write(`\n${dashboardText(dashboard)}`);
  }
  if (sections.includes('admin-lists')) {
    targets.push(...adminListsTargets(adminLists));
    if (adminLists) {
      Object.assign(results, { adminLists });
      process.stdout.write(`\n${adminListsText(adminLists)}`);
    }
  }
  if (sections.includes('live-events')) {
    targets.push(...liveEventsTargets(liveEvents));
    if (liveEvents) {
      Object.assign(results, { liveEvents });
      process.stdout.write(`\n${liveEventsText(liveEvents)}`);
    }
  }
  if (sections.includes('orders-export')) {
    targets.push(...ordersExportTargets(ordersExport));
    if (ordersExport) {
      Object.assign(results, { ordersExport });
      process.stdout.write(`\n${ordersExportText(ordersExport)}`);
    }
  }
  if (sections.includes('image-upload')) {
    targets.push(...imageUploadTargets(imageUpload));
    if (imageUpload) Object.assign(results, { imageUpload });
  }
  if (sections.includes('cold-start')) {
    targets.push(...coldStartTargets(coldStart));
    if (coldStart) {
      Object.assign(results, { coldStart });
      process.stdout.write(`\n${coldStartText(coldStart)}`);
    }
  }
  process.stdout.write(`\n${summary(results, targets)}\n`);
  await writeResults(results, targets);
  process.stdout.write(`\nFull results: ${path.relative(root, resultsFile)}\n`);
  return targets.every((target) => target.met) ? 0 : 1;
}

/** Interrupted: stop Chromium, the shop (removing its database) and the baseline server, then leave. */
async function interrupt(signal: string): Promise<never> {
  interrupted = true;
  process.stderr.write(`\nbench: ${signal}, stopping the browser and the servers…\n`);
  killAll();
  if (runningShop) await stopShop(runningShop);
  await stopAllProcesses();
  // Again: a run in progress may have launched Chromium while the servers stopped.
  killAll();
  process.exit(130);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void interrupt(signal));
}

process.exitCode = await main();
