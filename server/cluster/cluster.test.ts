import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { LIVE_EVENTS_PATH, LIVE_READY_EVENT } from '#common/live-events.ts';
import { postgresUrl, redisUrl } from '#server/testing/test-environment.ts';
import { type Answer, type Browser, browser, type EventStream } from './browser.ts';
import { type Cluster, findNginx, type Instance, startCluster } from './cluster.ts';

/**
 * Issue 16, "Many instances, one shop": three production processes (`node server/start.js`) on one
 * PostgreSQL database and one Redis, behind nginx configured from deploy/nginx.conf.template, and
 * what a shop spread over them must keep: one session, one rate limit, one catalogue, one event
 * stream, each job once, and no acknowledged write lost when an instance dies. Runs with
 * DATABASE_URL and REDIS_URL (`npm run test:db`); the cluster starts a Redis of its own when the
 * machine has redis-server (see cluster.ts).
 */

const nginx = findNginx();
const enabled = Boolean(postgresUrl && redisUrl);
const unique = () => randomBytes(5).toString('hex');

// biome-ignore lint/style/noProcessEnv: in CI (CI=1, .ci/run) a missing nginx must fail, not skip; test-environment.ts has no flag for it.
const inCi = Boolean(process.env.CI);

if (enabled && !nginx && inCi) {
  // CI has PostgreSQL and Redis, so this suite must run there: a missing nginx is a broken machine, not a skip.
  describe('many instances behind nginx', () => {
    test('nginx is installed', () => {
      throw new Error('nginx is missing: install it (apt-get install nginx-light; .ci/run does it as root)');
    });
  });
}

describe.skipIf(!enabled || !nginx)('many instances behind nginx, one shop', () => {
  let cluster: Cluster;
  let db: pg.Client;
  let a: Instance;
  let b: Instance;
  let c: Instance;
  let owner: Browser;
  let product: { id: string; slug: string };
  let failed = false;
  /** What was measured, printed at the end (docs/operations.md quotes it). */
  const figures: Record<string, unknown> = {};
  const browsers: Browser[] = [];
  const streams: EventStream[] = [];

  const newBrowser = () => {
    const made = browser();
    browsers.push(made);
    return made;
  };

  async function rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
    return (await db.query(sql, values)).rows as T[];
  }

  /**
   * Polls until `check` holds, failing when a check begun after `ms` does not; answers when the
   * check that held had finished, in ms from the start (the request's own time included).
   */
  async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
    const started = performance.now();
    for (;;) {
      const late = performance.now() - started > ms;
      if (await check()) return Math.round(performance.now() - started);
      if (late) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function saveSettings(through: Instance, changes: Record<string, unknown>) {
    const saved = await owner.write(through.url, 'POST', '/api/admin/settings', changes);
    expect(saved.status, saved.text).toBe(200);
    // The save is heard by every instance (the settings signal): the site name shows when.
    const siteName = saved.json.siteName as string;
    return within(
      5000,
      async () => {
        const seen = await Promise.all(
          cluster.instances.map((instance) => owner.request(instance.url, 'GET', '/api/settings/public')),
        );
        return seen.every((answer) => answer.json?.siteName === siteName);
      },
      'the settings saved on one instance reach the others',
    );
  }

  beforeAll(async () => {
    const started = performance.now();
    cluster = await startCluster({ redisUrl: redisUrl as string, nginx: nginx as string });
    figures.startMs = Math.round(performance.now() - started);
    figures.redis = cluster.ownRedis ? 'a redis-server of its own' : "the machine's";
    [a, b, c] = cluster.instances as [Instance, Instance, Instance];
    try {
      db = new pg.Client({ connectionString: cluster.databaseUrl });
      await db.connect();
      // The owner (set by `npm run owner` before the start) signs in through nginx.
      const owners = await rows<{ n: string }>(`SELECT count(*) AS n FROM users WHERE role = 'owner'`);
      expect(owners[0]?.n).toBe('1');
      owner = newBrowser();
      const signIn = await owner.write(cluster.url, 'POST', '/api/auth/login', cluster.owner);
      expect(signIn.status, signIn.text).toBe(200);

      // Room for the loops below; the strict limit low enough to reach.
      figures.settingsSignalMs = await saveSettings(a, {
        siteName: `Cluster ${unique()}`,
        generalRateLimit: 1000,
        adminRateLimit: 500,
        strictRateLimit: 6,
      });

      const created = await owner.write(a.url, 'POST', '/api/admin/products', {
        title: `Cluster lamp ${unique()}`,
        price: 2500,
        aliId: '1005001234567890',
        stock: 5,
        status: 'active',
      });
      expect(created.status, created.text).toBe(201);
      product = { id: created.json.product.id, slug: created.json.product.slug };
    } catch (error) {
      failed = true;
      console.error(cluster.logTails());
      throw error;
    }
  }, 180_000);

  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      failed = true;
      console.error(`Logs (kept in ${cluster.dir}):\n${cluster.logTails()}`);
    });
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const made of browsers) made.close();
    await db?.end().catch(() => {});
    console.info(`cluster figures: ${JSON.stringify(figures)}`);
    await cluster?.stop({ keepFiles: failed });
  }, 60_000);

  test('a session and a CSRF token made on one instance work on the others', { timeout: 120_000 }, async () => {
    const shopper = newBrowser();
    const email = `shopper-${unique()}@cluster.test`;
    // Everything made on a: the CSRF cookie and its token, the account, the session.
    const token = await shopper.csrfToken(a.url);
    const registered = await shopper.request(a.url, 'POST', '/api/auth/register', {
      body: { username: `shopper${unique()}`, email, password: 'Correct-Horse-Battery-9' },
      csrf: token,
    });
    expect(registered.status, registered.text).toBe(201);
    expect(shopper.cookie('sw_session')).toBeTruthy();

    // b and c, asked directly, know the session and accept a's token for their writes.
    for (const instance of [b, c]) {
      const username = `on${instance.name}${unique()}`;
      const saved = await shopper.request(instance.url, 'PUT', '/api/auth/profile', {
        body: { username, email },
        csrf: token,
      });
      expect(saved.status, `${instance.name}: ${saved.text}`).toBe(200);
      const me = await shopper.request(a.url, 'GET', '/api/auth/me');
      expect(me.json.user.username).toBe(username);
    }

    // Through nginx, the requests go round the instances: each accepts the same session and token.
    const answeredBy = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const username = `nginx${round}${unique()}`;
      const saved = await shopper.request(cluster.url, 'PUT', '/api/auth/profile', {
        body: { username, email },
        csrf: token,
      });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json.user.username).toBe(username);
      answeredBy.add(saved.upstream ?? '?');
    }
    expect([...answeredBy].sort()).toEqual(cluster.instances.map((instance) => instance.address).sort());

    // A token altered, or one without the cookie it was made for, is refused on any instance.
    const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = await shopper.request(c.url, 'PUT', '/api/auth/profile', {
      body: { username: 'forged', email },
      csrf: altered,
    });
    expect(forged.status).toBe(403);
    expect(forged.json.code).toBe('csrf_invalid');
    const stranger = newBrowser();
    const borrowed = await stranger.request(b.url, 'PUT', '/api/auth/profile', {
      body: { username: 'borrowed', email },
      csrf: token,
    });
    expect(borrowed.status).toBe(403);

    // Signed out on c: the session is gone on a and b too.
    const out = await shopper.request(c.url, 'POST', '/api/auth/logout', { csrf: token });
    expect(out.status).toBe(200);
    for (const instance of cluster.instances) {
      const me = await shopper.request(instance.url, 'GET', '/api/auth/me');
      expect(me.json.authenticated).toBe(false);
    }
  });

  test('the strict sign-in limit counts attempts made to any instance', { timeout: 120_000 }, async () => {
    const client = newBrowser();
    const attempt = async (base: string) => {
      const answer = await client.write(base, 'POST', '/api/auth/login', {
        email: `nobody-${unique()}@cluster.test`,
        password: 'not the password',
      });
      return answer;
    };
    // The limit is 6 a minute (saved above): six attempts spread over a, b, c and nginx are answered...
    const where = [a.url, b.url, c.url, cluster.url, a.url, b.url];
    for (const base of where) expect((await attempt(base)).status).toBe(401);
    // ... and the seventh is refused wherever it goes.
    for (const base of [c.url, cluster.url, a.url]) {
      const limited = await attempt(base);
      expect(limited.status, limited.text).toBe(429);
      expect(limited.json.code).toBe('rate_limited');
      expect(limited.headers['retry-after']).toBeDefined();
    }
    // Another client, through the same nginx, has its own count: nginx passed each one's address on.
    const other = newBrowser();
    const answer = await other.write(cluster.url, 'POST', '/api/auth/login', {
      email: `nobody-${unique()}@cluster.test`,
      password: 'not the password',
    });
    expect(answer.status).toBe(401);
  });

  test('an admin edit on one instance is seen by every instance at once', { timeout: 120_000 }, async () => {
    const shopper = newBrowser();
    const read = (base: string) => shopper.request(base, 'GET', `/api/products/${product.slug}`);
    const before = await read(a.url);
    expect(before.status, before.text).toBe(200);
    // b and c hold the product in their public cache (the second read is from memory).
    for (const instance of [b, c]) {
      await read(instance.url);
      expect((await read(instance.url)).json.title).toBe(before.json.title);
    }
    // The cache does hold it: a change made behind the shop's back (no event) is not seen.
    await db.query('UPDATE products SET title = $1 WHERE id = $2', ['Changed behind the cache', product.id]);
    for (const instance of [b, c]) expect((await read(instance.url)).json.title).toBe(before.json.title);

    const title = `Cluster lamp, renamed ${unique()}`;
    const edited = await owner.write(a.url, 'PATCH', `/api/admin/products/${product.id}`, { title, price: 3100 });
    expect(edited.status, edited.text).toBe(200);
    const shows = (answer: Answer) => answer.json?.title === title && answer.json?.price === 3100;
    expect(shows(await read(a.url))).toBe(true);
    const delays: Record<string, number> = {};
    await Promise.all(
      [b, c].map(async (instance) => {
        delays[instance.name] = await within(
          1000,
          async () => shows(await read(instance.url)),
          `${instance.name} shows the edit`,
        );
      }),
    );
    for (let round = 0; round < 3; round++) expect(shows(await read(cluster.url))).toBe(true);
    figures.cacheInvalidationMs = delays;
  });

  test('live events reach the admins on every instance', { timeout: 120_000 }, async () => {
    // Streams on b and c directly, and one through nginx (buffering off for the stream's path).
    const opened: Record<string, EventStream> = {};
    for (const [name, base] of [
      ['b', b.url],
      ['c', c.url],
      ['nginx', cluster.url],
    ] as const) {
      const stream = await owner.stream(base, LIVE_EVENTS_PATH);
      streams.push(stream);
      expect(stream.status).toBe(200);
      await stream.next((event) => event.event === LIVE_READY_EVENT, 10_000);
      opened[name] = stream;
    }

    const written = performance.now();
    const edited = await owner.write(a.url, 'PATCH', `/api/admin/products/${product.id}`, { price: 3300 });
    expect(edited.status, edited.text).toBe(200);
    const delays: Record<string, number> = {};
    for (const [name, stream] of Object.entries(opened)) {
      const event = await stream.next((candidate) => {
        if (candidate.event !== 'message') return false;
        const message = JSON.parse(candidate.data);
        return message.type === 'product_updated' && message.data.id === product.id;
      }, 5000);
      expect(Number(event.id)).toBeGreaterThan(0);
      delays[name] = Math.round(event.at - written);
    }
    // Each instance's stream carries the same event, by the same id (a reconnecting client resumes by it).
    const ids = Object.values(opened).map(
      (stream) =>
        stream.events.find((event) => event.event === 'message' && JSON.parse(event.data).data.id === product.id)?.id,
    );
    expect(new Set(ids).size).toBe(1);
    figures.liveEventMs = delays;
  });

  test('each background job runs once across the instances', { timeout: 120_000 }, async () => {
    // Sign-ups that need confirming: each queues one confirmation mail (newsletter.confirmation-mail),
    // which any of the three instances' workers may take.
    await saveSettings(b, { siteName: `Cluster ${unique()}`, requireEmailVerification: true });
    const emails = Array.from({ length: 12 }, () => `reader-${unique()}@cluster.test`);
    // Two sign-ups per client (the strict limit is 6), all through nginx.
    for (let start = 0; start < emails.length; start += 2) {
      const reader = newBrowser();
      for (const email of emails.slice(start, start + 2)) {
        const answer = await reader.write(cluster.url, 'POST', '/api/newsletter/subscribe', { email });
        expect(answer.status, answer.text).toBe(200);
        expect(answer.json.confirmationRequired).toBe(true);
      }
    }
    const mailed = async () =>
      rows<{ to: string; n: string }>(
        `SELECT "to", count(*) AS n FROM email_outbox WHERE template = 'newsletter-confirmation' AND "to" = ANY($1) GROUP BY "to"`,
        [emails],
      );
    const ranWithinMs = await within(30_000, async () => (await mailed()).length === emails.length, 'every mail sent');
    // Two more polling rounds of every worker (2 s each): a second run would have happened by now.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const counts = await mailed();
    expect(counts).toHaveLength(emails.length);
    for (const row of counts) expect(row.n, row.to).toBe('1');
    // Which instance ran each (the mailer's log line): each mail once, in one log only.
    const ranOn: Record<string, number> = {};
    for (const email of emails) {
      const logs = cluster.instances.filter((instance) =>
        readFileSync(instance.logFile, 'utf8').includes(`Email to ${email} (`),
      );
      expect(logs, email).toHaveLength(1);
      const name = logs[0]?.name ?? '?';
      ranOn[name] = (ranOn[name] ?? 0) + 1;
    }
    figures.jobs = { ranWithinMs, ranOn };
  });

  test('a scheduled job runs once a minute, not once an instance', { timeout: 200_000 }, async () => {
    // fulfilment.sweep runs on its cron schedule only (every minute). Each instance's queue looks
    // for due schedules and files the minute's occurrence under that minute (pg-boss's send-it
    // queue, one job a minute by a unique index); the occurrence then becomes one sweep job.
    const occurrences = () =>
      rows<{ minute: string; n: string }>(
        `SELECT singleton_on::text AS minute, count(*) AS n FROM pgboss.job
         WHERE name = '__pgboss__send-it' AND data->>'name' = 'fulfilment.sweep' GROUP BY 1 ORDER BY 1`,
      );
    const sweeps = () =>
      rows<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = 'fulfilment.sweep' ORDER BY created_on`);
    const waitedMs = await within(
      150_000,
      async () => {
        if ((await sweeps()).some((job) => job.state === 'completed')) return true;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return false;
      },
      'a sweep run',
    );
    const minutes = await occurrences();
    for (const minute of minutes) expect(Number(minute.n), minute.minute).toBe(1);
    // One sweep a minute filed, whichever instances looked (the last may still be on its way).
    const ran = await sweeps();
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(ran.length).toBeLessThanOrEqual(minutes.length);
    figures.cron = { waitedMs, minutes: minutes.map((minute) => minute.minute), sweeps: ran.map((job) => job.state) };
  });

  test('an instance killed mid-traffic loses no acknowledged write, and nginx routes around it', {
    timeout: 120_000,
  }, async () => {
    type Outcome = { email: string; status: number; startedAt: number; ms: number; upstream: string | null };
    const outcomes: Outcome[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    let running = true;
    // Four browsers registering accounts through nginx, one after another, each from its own address.
    const worker = async () => {
      while (running) {
        const client = newBrowser();
        const email = `signup-${unique()}@cluster.test`;
        const startedAt = performance.now();
        let status = 0;
        let upstream: string | null = null;
        try {
          const answer = await client.write(cluster.url, 'POST', '/api/auth/register', {
            username: `signup${unique()}`,
            email,
            password: 'Correct-Horse-Battery-9',
          });
          status = answer.status;
          upstream = answer.upstream;
        } catch {
          status = -1;
        }
        outcomes.push({ email, status, startedAt, ms: Math.round(performance.now() - startedAt), upstream });
        client.close();
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await within(60_000, async () => outcomes.length >= 12, 'traffic before the kill');
    await b.kill();
    killedAt = performance.now();
    expect(b.alive()).toBe(false);
    const startedAfterKill = () => outcomes.filter((outcome) => outcome.startedAt > killedAt);
    await within(60_000, async () => startedAfterKill().length >= 24, 'traffic after the kill');
    running = false;
    await Promise.all(workers);

    const acknowledged = outcomes.filter((outcome) => outcome.status >= 200 && outcome.status < 300);
    const failures = outcomes.filter((outcome) => outcome.status < 200 || outcome.status >= 300);
    const after = startedAfterKill();
    const stored = await rows<{ email: string }>('SELECT email FROM users WHERE email = ANY($1)', [
      outcomes.map((outcome) => outcome.email),
    ]);
    const storedEmails = new Set(stored.map((row) => row.email));
    figures.kill = {
      writes: outcomes.length,
      acknowledged: acknowledged.length,
      // A failed write's effect is unknown: b may have committed it before it died.
      failed: failures.map((failure) => ({ status: failure.status, stored: storedEmails.has(failure.email) })),
      startedAfterKill: after.length,
      // Requests nginx sent to b after the kill (refused), then passed on to another instance.
      passedOn: after.filter((outcome) => outcome.upstream?.includes(',')).length,
      slowestAfterKillMs: Math.max(...after.map((outcome) => outcome.ms)),
      answeredAfterKill: {
        a: after.filter((outcome) => outcome.upstream?.endsWith(a.address)).length,
        c: after.filter((outcome) => outcome.upstream?.endsWith(c.address)).length,
      },
    };
    // Every write answered 2xx is in the database.
    for (const outcome of acknowledged) expect(storedEmails.has(outcome.email), outcome.email).toBe(true);

    // Only a write that was on its way to b when it died may have failed (502: its effect unknown);
    // everything started after the kill succeeded, answered by a and c.
    for (const failure of failures) expect(failure.startedAt, JSON.stringify(failure)).toBeLessThan(killedAt);
    expect(failures.length).toBeLessThanOrEqual(4);
    expect(after.length).toBeGreaterThanOrEqual(24);
    // Which instance gave each answer after the kill: only a and c. (Not necessarily both: nginx's
    // round robin can keep to one of them for a while after a peer drops out.)
    const lastAnswers = after.map((outcome) => outcome.upstream?.split(', ').at(-1) ?? 'none');
    for (const answer of lastAnswers) expect([a.address, c.address]).toContain(answer);
  });
});
