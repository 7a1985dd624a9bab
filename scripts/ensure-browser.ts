/**
 * Before the browser tests: a Chromium that runs. When there is none, it is obtained here, as
 * Playwright's own `install --with-deps` would: through apt-get when this runs as root (or with
 * password-less sudo) on Debian; otherwise from the npm registry, as the Chromium build the
 * `@sparticuz/chromium` package ships inside its tarball (Playwright's own download comes from a
 * CDN, which a machine that reaches only the npm registry cannot fetch). When neither can be done,
 * it says exactly what to do.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BROWSER_CACHE, BROWSER_RECORD, browserPath, SYSTEM_CHROMIUM } from './browser-path.ts';

/** The npm package whose tarball holds a Chromium build (pinned: its size and its Chromium change with it). */
const NPM_BROWSER = { name: '@sparticuz/chromium', version: '153.0.0' };

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Whether the binary starts and names its version (a snap's stub or a broken install does not). */
function runs(binary: string): boolean {
  if (!existsSync(binary)) return false;
  const answer = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return answer.status === 0 && /\d+\.\d+/.test(answer.stdout);
}

function osRelease(): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync('/etc/os-release', 'utf8')
        .split('\n')
        .flatMap((line) => {
          const match = /^(\w+)=("?)(.*)\2$/.exec(line.trim());
          return match?.[1] ? [[match[1], match[3] ?? '']] : [];
        }),
    );
  } catch {
    return {};
  }
}

/** How to run apt-get as root here: directly, through password-less sudo, or not at all. */
function aptRunner(): string[] | null {
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version']).status !== 0) return null;
  if (process.getuid?.() === 0) return [];
  return spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : null;
}

function apt(runner: string[], args: string[]) {
  const [command = 'apt-get', ...rest] = [...runner, 'apt-get', ...args];
  execFileSync(command, rest, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Debian's package: the browser the tests are written against. Ubuntu's is a snap, which containers cannot run. */
function installWithApt(runner: string[]): boolean {
  const release = osRelease();
  if (release.ID !== 'debian' && !(release.ID_LIKE ?? '').split(' ').includes('debian')) return false;
  if (release.ID === 'ubuntu' || (release.ID_LIKE ?? '').includes('ubuntu')) return false;
  say(
    'Chromium is missing: installing Debian\'s chromium package with apt-get (as "playwright install --with-deps" would).',
  );
  try {
    apt(runner, ['update']);
    apt(runner, ['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    say('apt-get could not install chromium.');
    return false;
  }
  return runs(SYSTEM_CHROMIUM);
}

/** The Chromium build inside the npm package, unpacked; its path is recorded for the test runner. */
function installFromNpm(): string | null {
  const wanted = `${NPM_BROWSER.name}@${NPM_BROWSER.version}`;
  say(`Chromium is missing: fetching ${wanted} from the npm registry (a Chromium build inside the package).`);
  mkdirSync(BROWSER_CACHE, { recursive: true });
  try {
    // A package of its own, beside the project's: the project's lockfile stays as it is.
    writeFileSync(
      path.join(BROWSER_CACHE, 'package.json'),
      JSON.stringify({ private: true, dependencies: { [NPM_BROWSER.name]: NPM_BROWSER.version } }),
    );
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], {
      cwd: BROWSER_CACHE,
      stdio: 'inherit',
    });
    // The package unpacks its browser (and the libraries it needs) into a folder it chooses.
    const unpack = `import chromium from '${NPM_BROWSER.name}'; process.stdout.write(await chromium.executablePath());`;
    const binary = execFileSync(process.execPath, ['--input-type=module', '-e', unpack], {
      cwd: BROWSER_CACHE,
      encoding: 'utf8',
    }).trim();
    if (!runs(binary)) return null;
    writeFileSync(BROWSER_RECORD, `${binary}\n`);
    return binary;
  } catch {
    say(`${wanted} could not be fetched or unpacked.`);
    return null;
  }
}

function main(): number {
  const configured = browserPath();
  if (runs(configured)) return 0;
  if (process.env.CHROME_PATH) {
    say(`CHROME_PATH is ${process.env.CHROME_PATH}, which does not run: point it at a Chromium or Chrome binary.`);
    return 1;
  }
  const runner = aptRunner();
  if (runner && installWithApt(runner)) return 0;
  const unpacked = installFromNpm();
  if (unpacked) {
    say(`The browser tests will use ${unpacked}.`);
    return 0;
  }
  say(
    [
      `The browser tests need Chromium, and none could be installed here. Either:`,
      '  - install it as root: `apt-get update && apt-get install -y chromium` (Debian), or',
      '    `apt-get install -y chromium-browser` on Ubuntu with snap, then run `npm test` again; or',
      '  - set CHROME_PATH to a Chromium or Chrome binary you have, e.g. `CHROME_PATH=/usr/bin/google-chrome npm test`.',
    ].join('\n'),
  );
  return 1;
}

process.exit(main());
