import { LegalPage } from '#web/storefront/legal/legal-page.tsx';
import { PrivacyPolicy } from '#web/storefront/legal/privacy-policy.tsx';
import type { Route } from './+types/privacy.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Privacy Policy · Stillwater' },
  { name: 'description', content: 'What Stillwater collects when you shop with us, why, and the choices you have.' },
];

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 1, 2025">
      <PrivacyPolicy />
    </LegalPage>
  );
}
