import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import type { Mailer } from './mailer.ts';
import { createOutboxMailer } from './outbox-mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

/** SMTP when SMTP_URL is set, otherwise the outbox. */
export function createMailer(
  config: Config,
  { db, log }: { db: Db; log: (line: string, error?: unknown) => void },
): Mailer {
  if (config.smtpUrl) return createSmtpMailer({ db, url: config.smtpUrl, from: config.mailFrom, log });
  return createOutboxMailer({ db, log, printBodies: config.env === 'development' });
}
