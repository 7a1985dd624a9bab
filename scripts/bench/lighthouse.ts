/**
 * Lighthouse on a page, several runs, each in a fresh headless Chromium: Lighthouse's default
 * (mobile, simulated throttling) config, four categories, and the medians of scores and metrics.
 */
import { launch } from 'chrome-launcher';
import type { Flags, Result } from 'lighthouse';
import lighthouse from 'lighthouse';
import { browserPath } from '../browser-path.ts';
import { nextClientAddress } from './client-address.ts';

export const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof categories)[number];

const chromePath = browserPath();
// No internet here: without these, Chromium keeps trying to reach Google's services.
const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

type AuditResult = Result['audits'][string];

export type Metrics = {
  cls: number | null;
  lcpMs: number | null;
  fcpMs: number | null;
  tbtMs: number | null;
  speedIndexMs: number | null;
};

export type FailingAudit = {
  id: string;
  title: string;
  categories: Category[];
  /** 0–1. */
  score: number;
  displayValue: string | null;
  /** A few of the elements or URLs the audit points at. */
  examples: string[];
};

export type LighthouseRun = Metrics & {
  scores: Record<Category, number | null>;
  /** Of the main document, as Lighthouse saw it. */
  status: number | null;
  runtimeError: string | null;
  runWarnings: string[];
  /** Lighthouse's measure of this machine's speed: its simulated throttling scales with it. */
  benchmarkIndex: number;
  failing: FailingAudit[];
};

export type PageLighthouse = {
  path: string;
  runs: LighthouseRun[];
  /** Runs without a runtime error: the medians and failing audits come from these. */
  validRuns: number;
  median: Metrics & { scores: Record<Category, number | null> };
  /** Every audit that failed in at least one run, with the number of runs it failed in. */
  failingAudits: (FailingAudit & { failedRuns: number })[];
};

// Lighthouse sometimes loses a run (NO_NAVSTART and the like on a busy machine): that many are run again.
const extraAttempts = 2;

/**
 * `checkServer` throws when the server is gone, so no run is spent on a dead server. A page that
 * asks not to be indexed on purpose (`indexable: false`, the cart) skips the crawlability audit:
 * its noindex is right, not an SEO fault.
 */
export async function measureLighthouse(
  baseUrl: string,
  path: string,
  runCount: number,
  { checkServer = () => {}, indexable = true }: { checkServer?: () => void; indexable?: boolean } = {},
): Promise<PageLighthouse> {
  const url = new URL(path, baseUrl).href;
  const runs: LighthouseRun[] = [];
  const isValid = (run: LighthouseRun) => run.runtimeError === null;
  while (runs.filter(isValid).length < runCount && runs.length < runCount + extraAttempts) {
    checkServer();
    process.stdout.write(`  lighthouse ${path}: run ${runs.length + 1} (${runCount} wanted)\n`);
    const run = summarizeRun(await runLighthouse(url, indexable ? [] : ['is-crawlable']));
    if (run.runtimeError) process.stdout.write(`    lost: ${run.runtimeError}\n`);
    runs.push(run);
  }
  const valid = runs.filter(isValid);
  return { path, runs, validRuns: valid.length, median: medianOfRuns(valid), failingAudits: mergeFailing(valid) };
}

async function runLighthouse(url: string, skipAudits: string[]): Promise<Result> {
  const chrome = await launch({ chromePath, chromeFlags, logLevel: 'silent', handleSIGINT: false });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
      ...(skipAudits.length > 0 ? { skipAudits } : {}),
      // One simulated client per run keeps the shop's per-client rate limit out of the scores.
      extraHeaders: { 'x-forwarded-for': nextClientAddress() },
      disableFullPageScreenshot: true,
    };
    const result = await lighthouse(url, flags);
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

function summarizeRun(lhr: Result): LighthouseRun {
  const scores = Object.fromEntries(
    categories.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, typeof score === 'number' ? Math.round(score * 100) : null];
    }),
  ) as Record<Category, number | null>;
  return {
    scores,
    cls: numericValue(lhr, 'cumulative-layout-shift'),
    lcpMs: numericValue(lhr, 'largest-contentful-paint'),
    fcpMs: numericValue(lhr, 'first-contentful-paint'),
    tbtMs: numericValue(lhr, 'total-blocking-time'),
    speedIndexMs: numericValue(lhr, 'speed-index'),
    status: documentStatus(lhr),
    runtimeError: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
    runWarnings: lhr.runWarnings,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failing: failingAudits(lhr),
  };
}

function numericValue(lhr: Result, auditId: string): number | null {
  return lhr.audits[auditId]?.numericValue ?? null;
}

function documentStatus(lhr: Result): number | null {
  for (const item of detailItems(lhr.audits['network-requests'])) {
    if (item.url === lhr.mainDocumentUrl && typeof item.statusCode === 'number') return item.statusCode;
  }
  return null;
}

/** Audits that count (binary, numeric or with metric savings) and did not score full marks. */
function failingAudits(lhr: Result): FailingAudit[] {
  const categoriesOf = new Map<string, Category[]>();
  for (const category of categories) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      categoriesOf.set(ref.id, [...(categoriesOf.get(ref.id) ?? []), category]);
    }
  }
  const scored = new Set(['binary', 'numeric', 'metricSavings']);
  return Object.values(lhr.audits)
    .filter((audit) => scored.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < 1)
    .filter((audit) => categoriesOf.has(audit.id))
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      categories: categoriesOf.get(audit.id) ?? [],
      score: audit.score ?? 0,
      displayValue: audit.displayValue ?? null,
      examples: detailItems(audit).slice(0, 3).map(describeItem).filter(Boolean),
    }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The rows of an audit's details; a list of tables (the performance insights) is flattened once. */
function detailItems(audit: AuditResult | undefined): Record<string, unknown>[] {
  const details: unknown = audit?.details;
  const items = isRecord(details) && Array.isArray(details.items) ? details.items.filter(isRecord) : [];
  return items.flatMap((item) => (Array.isArray(item.items) ? item.items.filter(isRecord) : [item]));
}

function describeItem(item: Record<string, unknown>): string {
  const node = isRecord(item.node) ? item.node : null;
  const source = isRecord(item.source) ? item.source : null;
  const text =
    (node && (stringOf(node.snippet) || stringOf(node.selector))) ||
    stringOf(item.url) ||
    (source && stringOf(source.url)) ||
    stringOf(item.label);
  // axe's explanations start with a "Fix any of the following:" heading; the reason follows.
  const explanation = node
    ? (stringOf(node.explanation)
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line && !/^Fix (any|all) of the following:$/.test(line)) ?? '')
    : '';
  const line = explanation ? `${text} — ${explanation}` : text;
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function median(values: (number | null)[]): number | null {
  const sorted = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? null) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function medianOfRuns(runs: LighthouseRun[]): PageLighthouse['median'] {
  const of = (pick: (run: LighthouseRun) => number | null) => median(runs.map(pick));
  const scores = Object.fromEntries(categories.map((id) => [id, of((run) => run.scores[id])])) as Record<
    Category,
    number | null
  >;
  return {
    scores,
    cls: of((run) => run.cls),
    lcpMs: of((run) => run.lcpMs),
    fcpMs: of((run) => run.fcpMs),
    tbtMs: of((run) => run.tbtMs),
    speedIndexMs: of((run) => run.speedIndexMs),
  };
}

/** One entry per audit id, keeping the latest run's details, ordered by category then frequency. */
function mergeFailing(runs: LighthouseRun[]): PageLighthouse['failingAudits'] {
  const merged = new Map<string, FailingAudit & { failedRuns: number }>();
  for (const run of runs) {
    for (const audit of run.failing) {
      merged.set(audit.id, { ...audit, failedRuns: (merged.get(audit.id)?.failedRuns ?? 0) + 1 });
    }
  }
  const categoryRank = (audit: FailingAudit) => categories.indexOf(audit.categories[0] ?? 'seo');
  return [...merged.values()].sort((a, b) => categoryRank(a) - categoryRank(b) || b.failedRuns - a.failedRuns);
}
