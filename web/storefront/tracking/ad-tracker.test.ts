import { expect, test } from 'vitest';
import { AdEventProperties } from '#common/contracts/tracking.ts';
import { adCartProperties } from './ad-tracker.ts';

test('cart lines become the properties the tracker path accepts, in dollars', () => {
  const properties = adCartProperties(
    [
      { id: 'p1', title: 'Cushion', price: 39.5, quantity: 2 },
      { id: 'p2', title: 'Candle', price: 12, quantity: 1 },
    ],
    91.004,
  );
  expect(properties).toEqual({
    contents: [
      { content_id: 'p1', content_type: 'product', content_name: 'Cushion', price: 39.5, quantity: 2 },
      { content_id: 'p2', content_type: 'product', content_name: 'Candle', price: 12, quantity: 1 },
    ],
    content_type: 'product',
    currency: 'USD',
    value: 91,
    num_items: 3,
  });
  expect(AdEventProperties.safeParse(properties).success).toBe(true);
});

test('a cart beyond the limits of the tracker path is cut to fit them, not refused', () => {
  const lines = Array.from({ length: 80 }, (_, i) => ({
    id: `p${i}`,
    title: 'x'.repeat(400),
    price: 1,
    quantity: 999,
  }));
  const properties = adCartProperties(lines, 79_920);
  expect(properties.contents).toHaveLength(50);
  expect(properties.num_items).toBe(10_000);
  expect(AdEventProperties.safeParse(properties).success).toBe(true);
});
