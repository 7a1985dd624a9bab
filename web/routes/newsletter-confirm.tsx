import { type confirmNewsletter, newsletterMessages } from '#common/contracts/newsletter.ts';
import { api } from '#web/common/browser-api.ts';
import { LinkActionPage } from '#web/storefront/newsletter/link-action.tsx';
import type { Route } from './+types/newsletter-confirm.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm your subscription · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

/** The sentence for a bad link comes from the contract here, on the server, so that zod stays out of the page's bundle. */
export function loader() {
  return { invalid: newsletterMessages.confirmationInvalid };
}

/** The double opt-in link of the confirmation mail (/newsletter/confirm?token=…): confirmed at the button. */
export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  return (
    <LinkActionPage
      title="Confirm your subscription"
      prompt="Press the button to receive our newsletter at this address."
      action="Confirm subscription"
      busyLabel="Confirming…"
      run={(token) =>
        api.call<typeof confirmNewsletter>({ method: 'POST', path: '/api/newsletter/confirm' }, { body: { token } })
      }
      invalid={loaderData.invalid}
      done={{ to: '/products', label: 'Continue shopping' }}
    />
  );
}
