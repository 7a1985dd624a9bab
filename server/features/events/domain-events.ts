/**
 * What happened in the shop, as the back office's live stream carries it (spec: type and
 * data.collection). Features publish here after a write; subscribers (the public cache today,
 * the live stream and other instances later) react. In-process for now: the stream issue puts
 * a cross-instance fan-out behind the same interface.
 */
export const eventCollections = ['orders', 'products', 'users', 'reviews', 'newslettersubscribers'] as const;
export type EventCollection = (typeof eventCollections)[number];

export const eventTypes = [
  'order_created',
  'order_updated',
  'product_created',
  'product_updated',
  'product_deleted',
  'product_rating_updated',
  'user_registered',
  'user_updated',
  'review_created',
  'review_updated',
  'review_deleted',
  'newsletter_subscription',
  'newsletter_updated',
  'newsletter_unsubscribed',
] as const;
export type EventType = (typeof eventTypes)[number];

export type DomainEvent = {
  type: EventType;
  data: { collection: EventCollection; id: string } & Record<string, unknown>;
};

export type EventListener = (event: DomainEvent) => void;

export interface DomainEvents {
  /** Tells every subscriber; a failing subscriber does not stop the others or the write. */
  publish(event: DomainEvent): void;
  /** Returns the function that ends the subscription. */
  subscribe(listener: EventListener): () => void;
}

export function createDomainEvents({ onError }: { onError: (error: unknown) => void }): DomainEvents {
  const listeners = new Set<EventListener>();
  return {
    publish(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          onError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
