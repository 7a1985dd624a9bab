import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The body of the newest email sent to an address, waiting for it to arrive. */
export async function latestMailTo(address: string): Promise<string> {
  const folder = process.env.E2E_MAILBOX;
  if (!folder) throw new Error('E2E_MAILBOX is not set (see playwright.config.ts)');
  let found = '';
  await expect
    .poll(
      async () => {
        const files = (await readdir(folder).catch(() => [])).sort().reverse();
        for (const file of files) {
          const mail = await readFile(path.join(folder, file), 'utf8');
          if (mail.toLowerCase().startsWith(`x-envelope-to: ${address.toLowerCase()}`)) {
            found = mail;
            return true;
          }
        }
        return false;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  // Mail bodies are quoted-printable: soft line breaks and =3D stand for nothing and '='.
  return found.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}
