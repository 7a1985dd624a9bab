import { Link } from 'react-router';
import { LegalPage } from '#web/storefront/legal/legal-page.tsx';
import type { Route } from './+types/returns.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Returns and Exchanges · Stillwater' },
  { name: 'description', content: 'Return anything within 30 days of delivery for a full refund.' },
];

export default function Returns() {
  return (
    <LegalPage title="Returns and Exchanges" updated="November 1, 2025">
      <p>
        We want every piece you bring home to make it a little calmer. If something is not right, you can send it back.
      </p>

      <h2>30 days for a full refund</h2>
      <p>
        You have <strong>30 days from delivery</strong> to ask for a return, for a <strong>full refund</strong>. Items
        should be unused and in their original packaging where possible.
      </p>

      <h2>How to return an item</h2>
      <ul>
        <li>
          Write to us from the email address you ordered with (your order number helps), and we will send you a return
          label.
        </li>
        <li>
          Ship the item back <strong>within 14 days of receiving the label</strong>.
        </li>
        <li>
          Once it arrives we inspect it, and you receive your{' '}
          <strong>refund within 5 business days of inspection</strong>, to the card you paid with.
        </li>
      </ul>

      <h2>Exchanges</h2>
      <p>
        Would you rather have another finish or size? Tell us when you ask for the label; we send the replacement once
        the return is on its way, subject to stock.
      </p>

      <h2>What cannot be returned</h2>
      <p>
        <strong>Gift cards and downloads are non-returnable.</strong>
      </p>

      <h2>Shipping costs</h2>
      <p>
        <strong>Shipping is refunded if the return is due to an error or defect</strong> on our side, for example a
        damaged, faulty or wrong item. For other returns the original shipping cost is not refunded.
      </p>

      <h2>Questions</h2>
      <p>
        Read our <Link to="/terms-and-conditions">Terms and Conditions</Link>, or write to us: we answer every message
        within one business day.
      </p>
    </LegalPage>
  );
}
