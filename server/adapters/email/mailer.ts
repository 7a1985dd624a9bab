/** An email the shop sends. `template` names the kind of mail (for the outbox and the logs). */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
  /** Extra headers for the recipient's copy (a newsletter's List-Unsubscribe); the stored copy does not keep them. */
  headers?: Record<string, string>;
  /**
   * One-use tokens in the message (reset and confirmation links): they reach the recipient only,
   * and are cut out of the stored copy and the log.
   */
  secrets?: string[];
};

/** What stands in the stored copy where a one-use token was. */
export const REDACTED_SECRET = '[one-use token removed: sent only to the recipient]';

/** The message as it may be stored or logged: secrets cut out, and the list of them dropped. */
export function storableCopy({
  secrets = [],
  headers: _headers,
  ...message
}: MailMessage): Omit<MailMessage, 'secrets' | 'headers'> {
  const redact = (text: string) => secrets.reduce((result, secret) => result.replaceAll(secret, REDACTED_SECRET), text);
  return {
    ...message,
    subject: redact(message.subject),
    text: redact(message.text),
    ...(message.html === undefined ? {} : { html: redact(message.html) }),
  };
}

/** What the shop needs from email: send one message. */
export interface Mailer {
  readonly name: 'outbox' | 'smtp';
  /**
   * Sends a message, keeping a copy in the outbox table. Resolves once the message is handed
   * over (or kept, without SMTP); a delivery failure is recorded on the copy and reported as
   * `delivered: false`, never thrown, so a request does not fail because mail is down.
   */
  send(message: MailMessage): Promise<{ id: string; delivered: boolean }>;
}
