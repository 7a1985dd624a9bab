import { newsletterPages, unsubscribeNewsletter } from '#common/contracts/newsletter.ts';
import type { MailMessage } from '#server/adapters/email/mailer.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The links of one subscriber's copy: the page a person opens, and the one-click POST target (RFC 8058). */
export function unsubscribeLinks(publicUrl: string, token: string) {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    page: `${publicUrl}${newsletterPages.unsubscribe}?${query}`,
    oneClick: `${publicUrl}${unsubscribeNewsletter.path}?${query}`,
  };
}

/**
 * A newsletter as one subscriber receives it: the admin's plain text (blank lines separate
 * paragraphs) as text and as escaped HTML, with the unsubscribe link in the footer and the
 * List-Unsubscribe headers that let mail clients offer one-click unsubscribe (RFC 8058). No
 * mailto: address is offered, as nothing reads the shop's inbound mail.
 */
export function renderNewsletter({
  subject,
  content,
  siteName,
  links,
}: {
  subject: string;
  content: string;
  siteName: string;
  links: { page: string; oneClick: string };
}): Pick<MailMessage, 'subject' | 'text' | 'html' | 'headers'> & { html: string; headers: Record<string, string> } {
  const footer = `You receive this email because you subscribed to the ${siteName} newsletter.`;
  const text = `${content}\n\n--\n${footer}\nUnsubscribe: ${links.page}\n`;
  const paragraphs = content
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #1f2933; max-width: 40rem; margin: 0 auto; padding: 1rem">
${paragraphs}
<hr>
<p style="font-size: 0.875rem; color: #52606d">${escapeHtml(footer)} <a href="${escapeHtml(links.page)}">Unsubscribe</a></p>
</body></html>
`;
  return {
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
