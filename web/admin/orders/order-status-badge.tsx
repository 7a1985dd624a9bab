import type { OrderStatus } from '#common/contracts/orders.ts';

const statusStyles: Record<OrderStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-sky-100 text-sky-900',
  shipped: 'bg-indigo-100 text-indigo-900',
  delivered: 'bg-sage-100 text-sage-900',
  completed: 'bg-sage-100 text-sage-900',
  cancelled: 'bg-red-100 text-red-900',
};

/** An order's status as a read-only badge (it moves with fulfilment, not by hand). */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${statusStyles[status]}`}>{status}</span>
  );
}
