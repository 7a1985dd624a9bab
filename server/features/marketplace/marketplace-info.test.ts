import { describe, expect, test } from 'vitest';
import { MarketplaceError } from '#server/adapters/marketplace/marketplace.ts';
import { descriptionText, imageRefusal, marketplaceFailure, productInfo, usableImageUrls } from './marketplace-info.ts';

describe('the product info pictures (spec 5 and 9)', () => {
  test('placeholders are dropped, duplicates by normalised URL removed, the first 10 kept', () => {
    const urls = [
      'https://ae01.alicdn.com/kf/A.jpg',
      'https://AE01.alicdn.com/kf/A.jpg?width=800',
      'https://ae01.alicdn.com/kf/A.jpg#zoom',
      'https://ae01.alicdn.com/kf/no-photo.png',
      'https://ae01.alicdn.com/kf/NoPhoto_200.jpg',
      'https://ae01.alicdn.com/kf/placeholder.gif',
      'https://ae01.alicdn.com/kf/transparent-1x1.png',
      ...Array.from({ length: 12 }, (_, i) => `https://ae04.alicdn.com/kf/P${i}.jpg`),
    ];
    expect(usableImageUrls(urls)).toEqual([
      'https://ae01.alicdn.com/kf/A.jpg',
      ...Array.from({ length: 9 }, (_, i) => `https://ae04.alicdn.com/kf/P${i}.jpg`),
    ]);
    expect(usableImageUrls(['/api/demo-marketplace/images/1/1.png', '/api/demo-marketplace/images/1/1.png/'])).toEqual([
      '/api/demo-marketplace/images/1/1.png',
    ]);
  });
});

describe('the description as plain text', () => {
  test('markup, scripts and styles go; paragraphs and line breaks stay; entities are read', () => {
    const html =
      '<div><p>Calm &amp; quiet&nbsp;water.</p><script>alert("x")</script><style>p{}</style>' +
      '<p>Line one<br/>line two</p><ul><li>5 &lt; 6</li><li>&#8364;12 &#x2713;</li></ul><img src="x.jpg"></div>';
    expect(descriptionText(html)).toBe('Calm & quiet water.\n\nLine one\nline two\n\n5 < 6\n\n€12 ✓');
    expect(descriptionText('')).toBe('');
    expect(descriptionText('<p>\u0007bell</p>')).toBe('bell');
  });
});

describe('product info', () => {
  test("variants' prices in dollars, the cost in cents", () => {
    const info = productInfo({
      productId: '1',
      title: 'T',
      descriptionHtml: '<p>D</p>',
      imageUrls: [],
      variants: [
        {
          skuId: '9',
          skuAttr: '',
          name: 'Standard',
          label: 'Standard',
          price: 1999,
          salePrice: 1501,
          stock: 3,
          image: null,
        },
      ],
      variantLabel: 'Style',
      cost: 705,
      stock: 3,
      specifications: {},
      isOnSale: true,
    });
    expect(info).toEqual({
      productId: '1',
      title: 'T',
      imageUrls: [],
      variants: [
        {
          skuId: '9',
          skuAttr: '',
          name: 'Standard',
          label: 'Standard',
          price: 19.99,
          salePrice: 15.01,
          stock: 3,
          image: null,
        },
      ],
      variantLabel: 'Style',
      description: 'D',
      aliExpressPrice: 705,
      stock: 3,
    });
  });
});

describe('failures as HTTP answers', () => {
  test('marketplace errors', () => {
    const cases = [
      ['not_found', 404],
      ['not_available', 422],
      ['invalid_request', 400],
      ['rate_limited', 429],
      ['auth', 502],
      ['rejected', 502],
      ['outage', 502],
      ['bad_response', 502],
      ['unknown_outcome', 502],
    ] as const;
    for (const [code, status] of cases) {
      const failure = marketplaceFailure(new MarketplaceError(code, 'hidden-words'), '42');
      expect(failure.statusCode, code).toBe(status);
      expect(failure.message).not.toContain('hidden-words');
    }
    expect(marketplaceFailure(new MarketplaceError('rate_limited', 'x'), '1').retryAfter).toBe(2);
  });

  test('remote-fetch refusals', () => {
    expect(imageRefusal('private_address', 'm').statusCode).toBe(400);
    expect(imageRefusal('too_large', 'm').statusCode).toBe(413);
    expect(imageRefusal('not_an_image', 'm').statusCode).toBe(422);
    expect(imageRefusal('too_slow', 'm').statusCode).toBe(504);
    expect(imageRefusal('too_many_redirects', 'm').statusCode).toBe(502);
  });
});
