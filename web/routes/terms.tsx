import { LegalPage } from '#web/storefront/legal/legal-page.tsx';
import { TermsOfService } from '#web/storefront/legal/terms-of-service.tsx';
import type { Route } from './+types/terms.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Terms and Conditions · Stillwater' },
  { name: 'description', content: 'The terms that apply when you use the Stillwater shop and place an order.' },
  { tagName: 'link', rel: 'canonical', href: '/terms-and-conditions' },
];

export default function Terms() {
  return (
    <LegalPage title="Terms and Conditions" updated="November 1, 2025">
      <TermsOfService />
    </LegalPage>
  );
}
