import type { OrderStatus } from '#common/contracts/orders.ts';

/**
 * How an order's status moves (design: only by payment and fulfilment). Every change of status
 * goes through `canMove`; the back office shows the status read-only.
 */
const moves: Record<OrderStatus, readonly OrderStatus[]> = {
  // Awaiting payment (orders from channels that pay later).
  pending: ['processing', 'cancelled'],
  // Paid: the supplier order is being placed.
  processing: ['shipped', 'cancelled'],
  // The marketplace gave a tracking number.
  shipped: ['delivered', 'cancelled'],
  delivered: ['completed', 'cancelled'],
  // Refunded after completion.
  completed: ['cancelled'],
  cancelled: [],
};

/**
 * Orders that were paid: everything but those awaiting payment and those cancelled. The rollups'
 * triggers (migrations 0011, 0030 and 0032) name the same statuses.
 */
export const paidStatuses = ['processing', 'shipped', 'delivered', 'completed'] as const satisfies OrderStatus[];

/** The status an order takes when its payment is captured. */
export const PAID_STATUS = 'processing' satisfies OrderStatus;

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return moves[from].includes(to);
}

/** The statuses an order may move to from `to`'s predecessors: for a conditional UPDATE … WHERE status IN (…). */
export function movableTo(to: OrderStatus): OrderStatus[] {
  return (Object.keys(moves) as OrderStatus[]).filter((from) => canMove(from, to));
}
