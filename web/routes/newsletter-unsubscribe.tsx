import { newsletterMessages, type oneClickUnsubscribe } from '#common/contracts/newsletter.ts';
import { api } from '#web/common/browser-api.ts';
import { LinkActionPage } from '#web/storefront/newsletter/link-action.tsx';
import type { Route } from './+types/newsletter-unsubscribe.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Unsubscribe from the newsletter · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

/** The sentence for a bad link comes from the contract here, on the server, so that zod stays out of the page's bundle. */
export function loader() {
  return { invalid: newsletterMessages.unsubscribeInvalid };
}

/** The unsubscribe link of every newsletter (/newsletter/unsubscribe?token=…): the one-click POST at the button. */
export default function NewsletterUnsubscribe({ loaderData }: Route.ComponentProps) {
  return (
    <LinkActionPage
      title="Unsubscribe from the newsletter"
      prompt="Press the button to stop receiving our newsletter at this address."
      action="Unsubscribe"
      busyLabel="Unsubscribing…"
      run={(token) =>
        api.call<typeof oneClickUnsubscribe>(
          { method: 'POST', path: '/api/newsletter/unsubscribe' },
          { query: { token }, body: { 'List-Unsubscribe': 'One-Click' } },
        )
      }
      invalid={loaderData.invalid}
      done={{ to: '/', label: 'Return to Home' }}
    />
  );
}
