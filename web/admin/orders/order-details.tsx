import type { AdminOrder } from '#common/contracts/admin/orders.ts';
import { formatCents } from '#common/money.ts';
import { formatDateTime } from '../ui/format.ts';
import { tableStyles } from '../ui/list-controls.tsx';
import { Modal } from '../ui/modal.tsx';
import { secondaryButton } from '../ui/styles.ts';
import { OrderStatusBadge } from './order-status-badge.tsx';

const timelineLabels: Record<AdminOrder['timeline'][number]['event'], string> = {
  created: 'Order placed',
  paid: 'Payment captured',
  status: 'Status set to',
};

/** A label and its value in the detail modal. */
/** Where the supplier order stands (server/features/fulfilment), in words. */
const fulfilmentLabels: Record<NonNullable<AdminOrder['fulfilment']>['state'], string> = {
  queued: 'Waiting to be placed',
  placing: 'Being placed',
  retry: 'Placing failed; trying again',
  placed: 'Placed with the supplier',
  failed: 'Needs attention',
  done: 'Finished',
};

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-600">{term}</dt>
      <dd className="mt-1 text-sm text-stone-900">{children}</dd>
    </div>
  );
}

/**
 * The order's detail modal: every field of the order, the card (brand and last four only), the
 * fulfilment timeline and the tracking number. The status is read-only: it moves with fulfilment.
 */
export function OrderDetails({ order, onClose }: { order: AdminOrder | null; onClose: () => void }) {
  return (
    <Modal
      open={order !== null}
      onClose={onClose}
      title={order ? `Order ${order.orderNumber}` : 'Order'}
      size="lg"
      footer={
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
      }
    >
      {order ? <OrderBody order={order} /> : null}
    </Modal>
  );
}

function OrderBody({ order }: { order: AdminOrder }) {
  const address = order.shippingAddress;
  const card = order.payment;
  return (
    <div className="space-y-6">
      <dl className="grid gap-4 sm:grid-cols-3">
        <Detail term="Status">
          <OrderStatusBadge status={order.status} />
        </Detail>
        <Detail term="Placed">{formatDateTime(order.createdAt)}</Detail>
        <Detail term="Account">{order.user ? order.user.username : 'Guest checkout'}</Detail>
        <Detail term="Customer">
          {order.customerInfo.name}
          <br />
          <a className="text-sage-800 underline" href={`mailto:${order.customerInfo.email}`}>
            {order.customerInfo.email}
          </a>
        </Detail>
        <Detail term="Shipping address">
          {address ? (
            <>
              {address.street}
              <br />
              {address.city}, {address.state} {address.zipCode}
              <br />
              {address.country}
            </>
          ) : (
            'None'
          )}
        </Detail>
        <Detail term="Payment">
          {order.paymentMethod}
          {card?.brand || card?.last4 ? (
            <>
              <br />
              <span className="capitalize">{card.brand ?? 'Card'}</span>
              {card.last4 ? ` ending in ${card.last4}` : ''}
            </>
          ) : null}
        </Detail>
        <Detail term="Marketplace order">{order.aliOrderId ?? 'Not placed yet'}</Detail>
        <Detail term="Tracking number">{order.aliTrackingNumber ?? 'Not shipped yet'}</Detail>
        {order.fulfilment ? (
          <Detail term="Fulfilment">
            <span className={order.fulfilment.state === 'failed' ? 'font-medium text-red-800' : undefined}>
              {fulfilmentLabels[order.fulfilment.state]}
            </span>
            {order.fulfilment.supplierStatus ? ` (${order.fulfilment.supplierStatus})` : ''}
            {order.fulfilment.lastError ? (
              <>
                <br />
                <span className="text-red-800">{order.fulfilment.lastError}</span>
              </>
            ) : null}
          </Detail>
        ) : null}
      </dl>

      <div className={tableStyles.wrapper}>
        <table className={tableStyles.table}>
          <caption className="sr-only">Items of order {order.orderNumber}</caption>
          <thead className={tableStyles.head}>
            <tr>
              <th scope="col" className="px-4 py-2 text-left font-medium">
                Item
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Quantity
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Price
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-sage-100">
            {order.items.map((item, index) => (
              // Lines of one order have no id of their own; their order never changes.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <tr key={index}>
                <td className="px-4 py-2">{item.productName}</td>
                <td className="px-4 py-2 text-right">{item.quantity}</td>
                <td className="px-4 py-2 text-right">{formatCents(item.price)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="text-stone-800">
            {(
              [
                ['Subtotal', order.subtotal],
                // Shown only when it was more than nothing (the lines' prices are after codes).
                ...(order.discount > 0
                  ? [[`Discount (${order.discountCodes.join(', ') || 'sale'})`, -order.discount] as const]
                  : []),
                ['Shipping', order.shipping],
                ['Tax', order.tax],
                ...(order.processingFee > 0 ? [['Processing fee', order.processingFee] as const] : []),
              ] as const
            ).map(([name, cents]) => (
              <tr key={name}>
                <th scope="row" colSpan={2} className="px-4 py-1 text-right font-normal">
                  {name}
                </th>
                <td className="px-4 py-1 text-right">{cents < 0 ? `−${formatCents(-cents)}` : formatCents(cents)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" colSpan={2} className="px-4 py-2 text-right font-semibold">
                Total
              </th>
              <td className="px-4 py-2 text-right font-semibold">{formatCents(order.total)}</td>
            </tr>
          </tfoot>
        </table>
      </div>

      <section aria-labelledby="order-timeline-heading">
        <h3 id="order-timeline-heading" className="font-medium text-stone-900">
          Fulfilment
        </h3>
        <ol className="mt-2 space-y-2 border-sage-200 border-l-2 pl-4">
          {order.timeline.map((entry) => (
            <li key={`${entry.event}-${entry.at}`} className="text-sm text-stone-800">
              <span className="font-medium">{timelineLabels[entry.event]}</span>
              {entry.status ? <span className="capitalize"> {entry.status}</span> : null}
              <span className="text-stone-600"> · {formatDateTime(entry.at)}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
