import type { MailMessage } from '#server/adapters/email/mailer.ts';

/** The mail of a kind last sent to an address, as its recipient reads it. */
export function lastMail(box: MailMessage[], to: string, template: string) {
  const mail = box.findLast((message) => message.to === to && message.template === template);
  if (!mail) throw new Error(`no ${template} mail to ${to}`);
  return mail;
}

/** The token of the link in the last mail of a kind sent to an address. */
export function mailedToken(box: MailMessage[], to: string, template: string) {
  const token = /token=([\w-]+)/.exec(lastMail(box, to, template).text)?.[1];
  if (!token) throw new Error(`no link in the ${template} mail to ${to}`);
  return token;
}
