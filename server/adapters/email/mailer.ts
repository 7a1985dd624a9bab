/** An email the shop sends. `template` names the kind of mail (for the outbox and the logs). */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
};

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
