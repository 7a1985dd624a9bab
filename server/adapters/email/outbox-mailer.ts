import type { Db } from '#server/db/client.ts';
import { type Mailer, storableCopy } from './mailer.ts';
import { emailOutbox } from './outbox.tables.ts';

/**
 * The default mailer: messages end up in the outbox table (readable in the back office) and a
 * line in the log. The stored copy never holds a usable one-use token; the log shows the whole
 * message (links included) only in development, where it is how a developer follows a link.
 */
export function createOutboxMailer({
  db,
  log,
  printBodies,
}: {
  db: Db;
  log: (line: string) => void;
  printBodies: boolean;
}): Mailer {
  return {
    name: 'outbox',
    async send(message) {
      const copy = storableCopy(message);
      const [row] = await db
        .insert(emailOutbox)
        .values({ ...copy, html: copy.html ?? null, status: 'sent', sentAt: new Date(), attempts: 1 })
        .returning({ id: emailOutbox.id });
      const hint = `Email to ${message.to} (${message.template}) kept in the outbox: ${copy.subject}`;
      log(printBodies ? `${hint}\n${message.text}` : `${hint} (set SMTP_URL to deliver it)`);
      return { id: row?.id ?? '', delivered: true };
    },
  };
}
