import { expect, test } from 'vitest';
import { createDomainEvents, type DomainEvent } from './domain-events.ts';

test('every subscriber hears each event; a failing one neither stops the others nor the publisher', () => {
  const errors: unknown[] = [];
  const events = createDomainEvents({ onError: (error) => errors.push(error) });
  const heard: DomainEvent[] = [];
  events.subscribe(() => {
    throw new Error('subscriber failed');
  });
  const stop = events.subscribe((event) => heard.push(event));
  const event: DomainEvent = { type: 'review_created', data: { collection: 'reviews', id: 'abc' } };
  events.publish(event);
  expect(heard).toEqual([event]);
  expect(errors).toHaveLength(1);
  stop();
  events.publish(event);
  expect(heard).toHaveLength(1);
});
