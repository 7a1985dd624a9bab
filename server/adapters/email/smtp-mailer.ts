import { eq, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Db } from '#server/db/client.ts';
import { type Mailer, storableCopy } from './mailer.ts';
import { emailOutbox } from './outbox.tables.ts';

const SMTP_CONNECT_TIMEOUT_MS = 10_000;
const SMTP_SOCKET_TIMEOUT_MS = 20_000;

/**
 * The SMTP URL with nodemailer's time limits as query options; the URL's own, if it sets them,
 * win. Appended as text: the rest of the URL (a password's own encoding) is left as written.
 */
export function withTimeouts(url: string): string {
  const present = new URL(url).searchParams;
  const limits = Object.entries({
    connectionTimeout: SMTP_CONNECT_TIMEOUT_MS,
    greetingTimeout: SMTP_CONNECT_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
  }).filter(([name]) => !present.has(name));
  if (limits.length === 0) return url;
  const query = limits.map(([name, value]) => `${name}=${value}`).join('&');
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

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
  // Time limits well under a newsletter claim's 60 s lease (nodemailer's defaults run to minutes):
  // a stalled server fails the one mail instead of holding a batch past its lease.
  // nodemailer is loaded by the first mail, not at start.
  const transportUrl = withTimeouts(url);
  let transport: Transporter | null = null;
  const connect = async () => {
    if (!transport) {
      const { default: nodemailer } = await import('nodemailer');
      transport ??= nodemailer.createTransport(transportUrl);
    }
    return transport;
  };
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
        await (await connect()).sendMail({
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
    close: () => transport?.close(),
  };
}
