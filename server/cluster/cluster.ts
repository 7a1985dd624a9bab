/**
 * A shop of several real production processes (`node server/start.js`, the server's bundle,
 * NODE_ENV=production) on one PostgreSQL database and one Redis, behind a real nginx running deploy/nginx.conf.template: what
 * a multi-instance deployment looks like, for cluster.test.ts.
 *
 * Everything it starts is stopped by its process id, on every path: a failed start stops what it
 * had started, `stop()` ends the rest, and the test process's exit kills whatever is still running.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { exited, freePort, signal, tail, waitForAnswer, writeRefusingNpx } from '#server/testing/processes.ts';
import { commandEnv, databaseUrl, postgresUrl } from '#server/testing/test-environment.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const NGINX_TEMPLATE = path.join(root, 'deploy/nginx.conf.template');

/** How long one process may take to answer its first request (a loaded 2-core machine starts three at once). */
const START_TIMEOUT_MS = 90_000;
/** How long a stopped instance may take to close before it is killed. */
const STOP_TIMEOUT_MS = 10_000;
/** What the instances' `npx` says instead of building the web app (see startCluster). */
const NO_BUILD_MARKER = 'the cluster does not build the web app';

export type Instance = {
  /** a, b, c... as the tests name them. */
  name: string;
  port: number;
  /** The instance itself, bypassing nginx. */
  url: string;
  /** `host:port`, as nginx's $upstream_addr names it. */
  address: string;
  pid: number;
  logFile: string;
  /** False once the process has exited. */
  alive(): boolean;
  /** Ends the process at once (no shutdown: as a crash or the OOM killer would). */
  kill(): Promise<void>;
};

export type Cluster = {
  instances: Instance[];
  /**
   * The Redis the instances share: a redis-server of the cluster's own when the machine has the
   * program (nothing else's traffic in it), else the given one (each shop's channels and keys
   * carry its own prefix, so other test files' shops do not disturb this one).
   */
  redisUrl: string;
  ownRedis: boolean;
  /** nginx, in front of every instance. */
  url: string;
  nginxPid: number;
  /** The cluster's own database (dropped by stop()). */
  databaseUrl: string;
  dir: string;
  owner: { email: string; password: string };
  /** The last lines of every instance's log and nginx's error log. */
  logTails(lines?: number): string;
  /** Stops nginx and the instances, drops the database; the folder (logs) is kept when `keepFiles`. */
  stop(options?: { keepFiles?: boolean }): Promise<void>;
};

/** Where a program is (the system folders too, which a non-root PATH may leave out), or null. */
function findProgram(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name} /usr/bin/${name}`], {
    encoding: 'utf8',
  });
  const binary = found.stdout.trim().split('\n')[0];
  return binary ? binary : null;
}

/** Whether nginx can be run here, and where. */
export const findNginx = () => findProgram('nginx');

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: postgresUrl ?? undefined });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Resolves once the Redis on `port` answers PING. */
async function waitForRedis(port: number, alive: () => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (!alive()) throw new Error('it exited');
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(1000, () => socket.destroy());
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(false));
      socket.once('data', (data) => {
        resolve(data.toString().startsWith('+PONG'));
        socket.destroy();
      });
      socket.write('PING\r\n');
    });
    if (answered) return;
    if (Date.now() > deadline) throw new Error('it did not answer PING within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The template with its placeholders filled (deploy/nginx.conf.template names them). */
export function fillNginxTemplate(
  template: string,
  { upstreams, listen, serverName }: { upstreams: string[]; listen: string; serverName: string },
): string {
  const filled = template
    .replace(
      '{{UPSTREAM_SERVERS}}',
      upstreams.map((address) => `server ${address} max_fails=1 fail_timeout=5s;`).join('\n    '),
    )
    .replace('{{LISTEN}}', listen)
    .replace('{{SERVER_NAME}}', serverName);
  const left = /\{\{[A-Z_]+\}\}/.exec(filled);
  if (left) throw new Error(`nginx template: ${left[0]} was not filled`);
  return filled;
}

/**
 * The whole nginx.conf around the template: what /etc/nginx/nginx.conf gives it in production
 * (events, logs, temporary folders), with every file nginx writes inside the folder, so it runs
 * without root. Each answer names the instance that gave it (X-Upstream), for the tests only.
 */
function nginxMainConfig(dir: string, site: string): string {
  const at = (name: string) => path.join(dir, name);
  return `worker_processes 1;
pid ${at('nginx.pid')};
error_log ${at('nginx-error.log')} info;
events { worker_connections 1024; }
http {
    access_log ${at('nginx-access.log')};
    client_body_temp_path ${at('nginx-tmp/body')};
    proxy_temp_path ${at('nginx-tmp/proxy')};
    fastcgi_temp_path ${at('nginx-tmp/fastcgi')};
    uwsgi_temp_path ${at('nginx-tmp/uwsgi')};
    scgi_temp_path ${at('nginx-tmp/scgi')};
    add_header X-Upstream $upstream_addr always;
    include ${site};
}
`;
}

/**
 * Starts `count` instances (at once, as a deployment would) on a new database of their own, then
 * nginx in front of them. The database is made ready first as an operator would, with
 * `npm run owner` (it migrates and sets the owner), so the owner's password is known to the suite.
 * (Instances starting together on an empty database also make exactly one owner: ensureOwner
 * checks and inserts under an advisory lock.)
 */
export async function startCluster({
  count = 3,
  redisUrl: sharedRedisUrl,
  nginx,
}: {
  count?: number;
  /** The machine's Redis, used when there is no redis-server program to start one of the cluster's own. */
  redisUrl: string;
  nginx: string;
}): Promise<Cluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stillwater-cluster-'));
  const database = `sw_cluster_${randomBytes(6).toString('hex')}`;
  const children: ChildProcess[] = [];
  let proxy: ChildProcess | null = null;
  let redisChild: ChildProcess | null = null;
  let databaseCreated = false;
  let stopping = false;
  // A test process that ends without stop() (a crash, a timeout) must not leave these running.
  // nginx's master is asked to stop (killed, it would leave its worker behind).
  const killAll = () => {
    for (const child of children) {
      if (child.pid && child.exitCode === null) signal(child.pid, child === proxy ? 'SIGTERM' : 'SIGKILL');
    }
  };
  process.on('exit', killAll);

  const owner = { email: 'owner@cluster.test', password: `pw-${randomBytes(9).toString('base64url')}` };

  async function stop({ keepFiles = false }: { keepFiles?: boolean } = {}) {
    stopping = true;
    // Each asked to stop (SIGTERM: nginx's fast shutdown, the instances' graceful one), killed
    // after the wait; Redis last, as the instances use it until they have closed.
    const end = async (child: ChildProcess) => {
      if (!child.pid) return;
      signal(child.pid, 'SIGTERM');
      if (!(await exited(child, STOP_TIMEOUT_MS))) {
        signal(child.pid, 'SIGKILL');
        await exited(child, 2000);
      }
    };
    await Promise.all(children.filter((child) => child !== redisChild).map(end));
    if (redisChild) await end(redisChild);
    process.off('exit', killAll);
    if (databaseCreated) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    if (!keepFiles) await rm(dir, { recursive: true, force: true });
  }

  try {
    await adminQuery(`CREATE DATABASE ${database}`);
    databaseCreated = true;
    const url = databaseUrl(database);
    await promisify(execFile)(
      process.execPath,
      ['scripts/owner.ts', '--email', owner.email, '--password', owner.password],
      { cwd: root, env: commandEnv({ NODE_ENV: 'production', DATABASE_URL: url }), timeout: START_TIMEOUT_MS },
    );
    // A production start builds the web app when its sources changed since build/ was made (with
    // npx). Three instances would build into the one folder at once, under other test files' feet:
    // their npx refuses instead, and the start fails saying so.
    const bin = path.join(dir, 'bin');
    await mkdir(bin);
    await writeRefusingNpx(bin, NO_BUILD_MARKER);
    const searchPath = [bin, commandEnv({}).PATH].filter(Boolean).join(':');
    const ports = await Promise.all(Array.from({ length: count + 2 }, freePort));
    const nginxPort = ports[count] as number;
    const publicUrl = `http://127.0.0.1:${nginxPort}`;

    const redisServer = findProgram('redis-server');
    let redisUrl = sharedRedisUrl;
    if (redisServer) {
      const redisPort = ports[count + 1] as number;
      const redisLog = openSync(path.join(dir, 'redis.log'), 'a');
      const redis = spawn(
        redisServer,
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', redisLog, redisLog] },
      );
      closeSync(redisLog);
      children.push(redis);
      redisChild = redis;
      redisUrl = `redis://127.0.0.1:${redisPort}`;
      await waitForRedis(redisPort, () => redis.exitCode === null && redis.signalCode === null).catch((error) => {
        throw new Error(`redis-server: ${(error as Error).message}\n${tail(path.join(dir, 'redis.log'), 30)}`);
      });
    }

    const instances = await Promise.all(
      Array.from({ length: count }, async (_, index): Promise<Instance> => {
        const name = String.fromCharCode(97 + index);
        const port = ports[index] as number;
        const dataDir = path.join(dir, `instance-${name}`);
        await mkdir(dataDir, { recursive: true });
        const logFile = path.join(dir, `instance-${name}.log`);
        const log = openSync(logFile, 'a');
        const child = spawn(process.execPath, ['server/start.js'], {
          cwd: root,
          env: commandEnv({
            NODE_ENV: 'production',
            PATH: searchPath,
            NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/node-compile-cache'),
            HOST: '127.0.0.1',
            PORT: String(port),
            DATA_DIR: dataDir,
            DATABASE_URL: url,
            REDIS_URL: redisUrl,
            PUBLIC_URL: publicUrl,
            TRUST_PROXY: '1',
            LOG_LEVEL: 'info',
            // What the test runner's environment may hold and a plain production start would not.
            OWNER_EMAIL: undefined,
            OWNER_PASSWORD: undefined,
            SESSION_SECRET: undefined,
            SEED_DEMO_DATA: undefined,
            METRICS_PORT: undefined,
            METRICS_HOST: undefined,
            SMTP_URL: undefined,
            UPLOADS_DIR: undefined,
            RATE_LIMIT_ALLOW_LIST: undefined,
          }),
          stdio: ['ignore', log, log],
        });
        closeSync(log);
        children.push(child);
        if (!child.pid) throw new Error(`instance ${name} could not be started`);
        // Another instance failed while this one was being set up.
        if (stopping) signal(child.pid, 'SIGKILL');
        const pid = child.pid;
        const alive = () => child.exitCode === null && child.signalCode === null;
        const instanceUrl = `http://127.0.0.1:${port}`;
        await waitForAnswer(`${instanceUrl}/readyz`, { alive, timeoutMs: START_TIMEOUT_MS }).catch((error) => {
          if (readFileSync(logFile, 'utf8').includes(NO_BUILD_MARKER)) {
            throw new Error('build/ is older than the web sources: run `npm run build` first');
          }
          throw new Error(`instance ${name}: ${(error as Error).message}\n${tail(logFile, 30)}`);
        });
        return {
          name,
          port,
          url: instanceUrl,
          address: `127.0.0.1:${port}`,
          pid,
          logFile,
          alive,
          async kill() {
            signal(pid, 'SIGKILL');
            await exited(child, 5000);
          },
        };
      }),
    );

    await mkdir(path.join(dir, 'nginx-tmp'), { recursive: true });
    const site = path.join(dir, 'stillwater.conf');
    await writeFile(
      site,
      fillNginxTemplate(await readFile(NGINX_TEMPLATE, 'utf8'), {
        upstreams: instances.map((instance) => instance.address),
        listen: `127.0.0.1:${nginxPort}`,
        serverName: '127.0.0.1',
      }),
    );
    const mainConfig = path.join(dir, 'nginx.conf');
    await writeFile(mainConfig, nginxMainConfig(dir, site));
    const nginxLog = openSync(path.join(dir, 'nginx-error.log'), 'a');
    // -e: the error log before the configuration is read (the default one is root's).
    proxy = spawn(nginx, ['-p', dir, '-c', mainConfig, '-e', path.join(dir, 'nginx-error.log'), '-g', 'daemon off;'], {
      stdio: ['ignore', nginxLog, nginxLog],
    });
    closeSync(nginxLog);
    children.unshift(proxy);
    const started = proxy;
    const proxyAlive = () => started.exitCode === null && started.signalCode === null;
    await waitForAnswer(`${publicUrl}/healthz`, { alive: proxyAlive, timeoutMs: 20_000 }).catch((error) => {
      throw new Error(`nginx: ${(error as Error).message}\n${tail(path.join(dir, 'nginx-error.log'), 30)}`);
    });

    return {
      instances,
      redisUrl,
      ownRedis: redisServer !== null,
      url: publicUrl,
      nginxPid: started.pid as number,
      databaseUrl: url,
      dir,
      owner,
      logTails: (lines = 40) =>
        [
          ...instances.map(
            (instance) => `--- instance ${instance.name} (${instance.logFile})\n${tail(instance.logFile, lines)}`,
          ),
          `--- nginx\n${tail(path.join(dir, 'nginx-error.log'), lines)}`,
        ].join('\n'),
      stop,
    };
  } catch (error) {
    await stop({ keepFiles: true }).catch(() => {});
    throw new Error(`the cluster did not start (logs kept in ${dir}): ${(error as Error).message}`);
  }
}
