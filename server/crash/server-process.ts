/**
 * One real production shop process (`node server/start.js`, the server's bundle,
 * NODE_ENV=production) for the crash suites (issue 16): on a data folder (PGlite) or a PostgreSQL database, on a free port, its
 * output in a log file. It can be killed (SIGKILL, as a crash or the OOM killer would) or stopped
 * (SIGTERM, the graceful shutdown), and started again on the same folder.
 *
 * Every process started here is killed when the test process exits, whatever path it took.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  exited,
  freePort,
  isRunning,
  signal,
  tail,
  waitForAnswer,
  writeRefusingNpx,
} from '#server/testing/processes.ts';
import { commandEnv } from '#server/testing/test-environment.ts';
import { throwawayShopEnv } from '#server/testing/throwaway-shop.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** How long a start may take to answer /readyz (a first start on an empty folder seeds the demo shop). */
const START_TIMEOUT_MS = 120_000;
/** The shutdown's own bound is 10 s (server/main.ts): a process still there after this is killed. */
const STOP_TIMEOUT_MS = 15_000;
/** What the process's `npx` says instead of building the web app (the same trick as server/cluster/cluster.ts). */
const NO_BUILD_MARKER = 'the crash suites do not build the web app';

export type ShopProcess = {
  url: string;
  port: number;
  pid: number;
  logFile: string;
  /** The owner account the shop was started with (created on the folder's first start). */
  owner: { email: string; password: string };
  alive(): boolean;
  /** SIGKILL, as a crash or the OOM killer would; resolves once the process has exited. */
  kill(): Promise<void>;
  /** SIGTERM (graceful shutdown); resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
  /** The signal that ended the process (SIGKILL after kill()), null while it runs or when it exited by itself. */
  exitSignal(): NodeJS.Signals | null;
  /** The last lines of the log, for failure messages. */
  logTail(lines?: number): string;
};

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** A test process that ends without kill() or stop() (a crash, a timeout) must not leave shops running. */
function killAllOnExit() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) if (child.pid && isRunning(child)) signal(child.pid, 'SIGKILL');
  });
}

/**
 * Starts the shop on `dataDir` (its embedded database, unless `databaseUrl` is given) with the
 * environment of a throwaway production shop (server/testing/throwaway-shop.ts: demo seed, owner
 * password), `env` on top (undefined removes a variable). Resolves once /readyz answers 200.
 * The owner is created on a folder's first start only: a restart that signs in as the owner
 * passes the first start's `ownerPassword` again (ShopProcess.owner.password).
 */
export async function startShopProcess(options: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string | undefined>;
  port?: number;
  /** The owner's password for the folder's first start (a random one when not given). */
  ownerPassword?: string;
}): Promise<ShopProcess> {
  if (!existsSync(path.join(root, 'build/server/index.js'))) {
    throw new Error('build/ is missing: the production server serves the built web app, run `npm run build` first');
  }
  killAllOnExit();
  const dataDir = path.resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const ownerPassword = options.ownerPassword ?? `pw-${randomBytes(9).toString('base64url')}`;
  const shopEnv = throwawayShopEnv(dataDir, { password: ownerPassword });
  const owner = { email: shopEnv.OWNER_EMAIL as string, password: ownerPassword };

  // A production start builds the web app when its sources changed since build/ was made (with
  // npx): under other test files' feet, and for minutes. The process's npx refuses instead, and
  // the start fails saying so.
  const bin = path.join(dataDir, 'test-bin');
  mkdirSync(bin, { recursive: true });
  await writeRefusingNpx(bin, NO_BUILD_MARKER);

  // One log per start, in the data folder (its database is in db/ there): removing the folder removes them.
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
  const logFile = path.join(dataDir, 'logs', `shop-${Date.now()}-${port}.log`);
  const log = openSync(logFile, 'a');
  const child = spawn(path.join(root, 'node_modules/.bin/node'), ['server/start.js'], {
    cwd: root,
    env: commandEnv({
      ...shopEnv,
      PATH: [bin, commandEnv({}).PATH].filter(Boolean).join(':'),
      NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/node-compile-cache'),
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: options.databaseUrl,
      // What the test runner's environment may hold and a plain start of this shop would not.
      REDIS_URL: undefined,
      SESSION_SECRET: undefined,
      METRICS_PORT: undefined,
      METRICS_HOST: undefined,
      SMTP_URL: undefined,
      TRUST_PROXY: undefined,
      RATE_LIMIT_ALLOW_LIST: undefined,
      ...options.env,
    }),
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (!child.pid) throw new Error('the shop process could not be started');
  running.add(child);
  child.once('exit', () => running.delete(child));
  const pid = child.pid;
  const alive = () => isRunning(child);

  async function kill() {
    signal(pid, 'SIGKILL');
    await exited(child, 10_000);
  }

  try {
    await waitForAnswer(`${url}/readyz`, { alive, timeoutMs: START_TIMEOUT_MS });
  } catch (error) {
    await kill();
    if (readFileSync(logFile, 'utf8').includes(NO_BUILD_MARKER)) {
      throw new Error('build/ is older than the web sources: run `npm run build` first');
    }
    throw new Error(`the shop on ${dataDir} did not start: ${(error as Error).message}\n${tail(logFile, 40)}`);
  }

  return {
    url,
    port,
    pid,
    logFile,
    owner,
    alive,
    kill,
    async stop() {
      signal(pid, 'SIGTERM');
      if (!(await exited(child, STOP_TIMEOUT_MS))) {
        signal(pid, 'SIGKILL');
        await exited(child, 10_000);
      }
      return child.exitCode;
    },
    exitSignal: () => child.signalCode,
    logTail: (lines = 40) => tail(logFile, lines),
  };
}
