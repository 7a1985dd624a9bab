import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, test } from 'vitest';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { REDACTED_SECRET } from './mailer.ts';
import { emailOutbox } from './outbox.tables.ts';
import { createOutboxMailer } from './outbox-mailer.ts';
import { createSmtpMailer, withTimeouts } from './smtp-mailer.ts';

const database = await createMigratedTestDatabase();
afterAll(() => database.close());
const { db } = database;
const message = {
  to: 'mara@example.com',
  subject: 'Reset your password',
  text: 'Open http://x/reset?token=one-use-secret-123',
  template: 'password-reset',
  secrets: ['one-use-secret-123'],
};

/** A local SMTP server that keeps what it receives, or refuses every message. */
async function localSmtp({ refuse = false } = {}) {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        if (refuse) return callback(new Error('mailbox unavailable'));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('outbox mailer', () => {
  test('keeps the message in the outbox without its one-use token, and logs only a hint', async () => {
    const lines: string[] = [];
    const mailer = createOutboxMailer({ db, log: (line) => lines.push(line), printBodies: false });
    const { id, delivered } = await mailer.send(message);
    expect(delivered).toBe(true);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({
      to: 'mara@example.com',
      subject: 'Reset your password',
      status: 'sent',
      template: 'password-reset',
      text: `Open http://x/reset?token=${REDACTED_SECRET}`,
    });
    expect(lines).toEqual([
      'Email to mara@example.com (password-reset) kept in the outbox: Reset your password (set SMTP_URL to deliver it)',
    ]);
  });

  test('in development the log shows the whole message, so a developer can follow its link', async () => {
    const lines: string[] = [];
    const mailer = createOutboxMailer({ db, log: (line) => lines.push(line), printBodies: true });
    const { id } = await mailer.send(message);
    expect(lines[0]).toContain('Open http://x/reset?token=one-use-secret-123');
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.text).not.toContain('one-use-secret-123');
  });
});

describe('SMTP mailer', () => {
  test('delivers through the SMTP server and records it as sent', async () => {
    const smtp = await localSmtp();
    const mailer = createSmtpMailer({ db, url: smtp.url, from: 'Stillwater <hello@stillwater.shop>', log: () => {} });
    try {
      const { id, delivered } = await mailer.send(message);
      expect(delivered).toBe(true);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.to).toEqual(['mara@example.com']);
      expect(smtp.received[0]?.from).toBe('hello@stillwater.shop');
      expect(smtp.received[0]?.data).toContain('Subject: Reset your password');
      // The recipient gets the link; the stored copy does not keep the token.
      expect(smtp.received[0]?.data).toContain('one-use-secret-123');
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      expect(row).toMatchObject({ status: 'sent', attempts: 1 });
      expect(row?.text).not.toContain('one-use-secret-123');
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  test("extra headers reach the recipient (a newsletter's one-click unsubscribe), not the stored copy", async () => {
    const smtp = await localSmtp();
    const mailer = createSmtpMailer({ db, url: smtp.url, from: 'shop@example.com', log: () => {} });
    try {
      const { id, delivered } = await mailer.send({
        to: 'reader@example.com',
        subject: 'News',
        text: 'Hello',
        template: 'newsletter',
        headers: {
          'List-Unsubscribe': '<https://shop.test/u?token=abc123>',
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
      expect(delivered).toBe(true);
      expect(smtp.received[0]?.data).toContain('List-Unsubscribe: <https://shop.test/u?token=abc123>');
      expect(smtp.received[0]?.data).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      expect(row).toMatchObject({ status: 'sent', template: 'newsletter' });
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  test('a refused message is recorded as failed, not thrown', async () => {
    const smtp = await localSmtp({ refuse: true });
    const errors: unknown[] = [];
    const mailer = createSmtpMailer({
      db,
      url: smtp.url,
      from: 'shop@example.com',
      log: (_line, error) => errors.push(error),
    });
    try {
      const { id, delivered } = await mailer.send(message);
      expect(delivered).toBe(false);
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      expect(row?.status).toBe('failed');
      expect(row?.lastError).toMatch(/mailbox unavailable/);
      expect(errors).toHaveLength(1);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  test('an unreachable server is recorded as failed', async () => {
    const mailer = createSmtpMailer({ db, url: 'smtp://127.0.0.1:1', from: 'shop@example.com', log: () => {} });
    const { id, delivered } = await mailer.send(message);
    expect(delivered).toBe(false);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.status).toBe('failed');
    mailer.close();
  });
});

describe('SMTP time limits', () => {
  test('are added to the URL as nodemailer reads them, and the URL keeps its own', () => {
    expect(withTimeouts('smtps://user:p%40ss@smtp.example.com:465')).toBe(
      'smtps://user:p%40ss@smtp.example.com:465?connectionTimeout=10000&greetingTimeout=10000&socketTimeout=20000',
    );
    expect(withTimeouts('smtp://smtp.example.com:587?socketTimeout=5000&tls.rejectUnauthorized=false')).toBe(
      'smtp://smtp.example.com:587?socketTimeout=5000&tls.rejectUnauthorized=false&connectionTimeout=10000&greetingTimeout=10000',
    );
  });
});
