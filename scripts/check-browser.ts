/** Before the browser tests: say plainly how to get Chromium when it is missing. */
import { existsSync } from 'node:fs';

const browser = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(browser)) {
  process.stderr.write(
    `The browser tests need Chromium at ${browser}.\n` +
      'Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROME_PATH to a Chromium or Chrome binary.\n',
  );
  process.exit(1);
}
