import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '#server/db/client.ts';
import { type Mailer, storableCopy } from './mailer.ts';
import { emailOutbox } from './outbox.tables.ts';

/** Sends through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function createSmtpMailer({
  db,
  url,
  from,
  log,
}: {
  db: Db;
  url: string;
  from: string;
  log: (line: string, error?: unknown) => void;
}): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(message) {
      const copy = storableCopy(message);
      const [row] = await db
        .insert(emailOutbox)
        .values({ ...copy, html: copy.html ?? null, status: 'queued' })
        .returning({ id: emailOutbox.id });
      const id = row?.id ?? '';
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.headers ? { headers: message.headers } : {}),
        });
        await db
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: new Date(), attempts: sql`${emailOutbox.attempts} + 1` })
          .where(eq(emailOutbox.id, id));
        return { id, delivered: true };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await db
          .update(emailOutbox)
          .set({ status: 'failed', lastError: reason.slice(0, 500), attempts: sql`${emailOutbox.attempts} + 1` })
          .where(eq(emailOutbox.id, id));
        log(`Email to ${message.to} (${message.template}) could not be sent`, error);
        return { id, delivered: false };
      }
    },
    close: () => transport.close(),
  };
}
