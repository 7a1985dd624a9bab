import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import {
  buildSignedParams,
  createAliExpressMarketplace,
  decimalToCents,
  mapGatewayError,
  parseAliExpressJson,
  parseAliExpressProduct,
  signAliExpressRequest,
  toSupplierOrderStatus,
  unwrapList,
} from './aliexpress-marketplace.ts';
import { type StandInProduct, startAliExpressStandIn } from './aliexpress-stand-in.ts';
import { MarketplaceError, type SupplierOrderRequest } from './marketplace.ts';

const appKey = '500100';
const appSecret = 'stand-in-secret-0123456789abcdef';
const accessToken = 'tok-0123456789';

const sunglasses: StandInProduct = {
  ae_item_base_info_dto: {
    product_id: 4000903675543,
    subject: 'Polarized Sunglasses',
    product_status_type: 'onSelling',
    currency_code: 'USD',
    detail: '<div>Light frame</div>',
  },
  ae_multimedia_info_dto: {
    image_urls: [
      'https://ae04.alicdn.com/kf/A.jpg',
      '//ae04.alicdn.com/kf/B.jpg',
      'http://ae04.alicdn.com/kf/C.jpg',
      'https://ae04.alicdn.com/kf/A.jpg',
      'javascript:alert(1)',
      ...Array.from({ length: 10 }, (_, i) => `https://ae04.alicdn.com/kf/P${i}.jpg`),
    ].join(';'),
  },
  ae_item_sku_info_dtos: [
    {
      sku_id: '12000027158136202',
      sku_attr: '73:175#Black Green;71:193#Polarized',
      sku_price: '3.94',
      offer_sale_price: '3.15',
      sku_available_stock: 57,
      currency_code: 'USD',
      ae_sku_property_dtos: [
        {
          sku_property_id: 73,
          sku_property_name: 'Lenses Color',
          sku_property_value: 'green',
          property_value_id: 175,
          property_value_definition_name: 'Black Green',
          sku_image: '//ae04.alicdn.com/kf/H.jpg',
        },
        { sku_property_id: 71, sku_property_name: 'Lens', sku_property_value: 'Polarized', property_value_id: 193 },
      ],
    },
    {
      sku_id: '12000027158136203',
      sku_attr: '73:29#Amber;71:193#Polarized',
      sku_price: '4.10',
      offer_sale_price: '4.10',
      sku_available_stock: 3,
      currency_code: 'USD',
      ae_sku_property_dtos: [
        { sku_property_name: 'Lenses Color', sku_property_value: 'orange', property_value_definition_name: 'Amber' },
        { sku_property_name: 'Lens', sku_property_value: 'Polarized' },
      ],
    },
  ],
  ae_item_properties: [
    { attr_name: 'Brand Name', attr_value: 'FUQIAN' },
    { attr_name: 'Material', attr_value: 'Metal' },
    { attr_name: 'Material', attr_value: 'Resin' },
    { attr_name: '__proto__', attr_value: 'only a name' },
  ],
  ae_store_info: { store_id: 4874072, store_name: 'Sun Store' },
};

const timer: StandInProduct = {
  ae_item_base_info_dto: { product_id: '1005006123456789', subject: 'Sand Timer' },
  ae_multimedia_info_dto: { image_urls: 'https://ae01.alicdn.com/kf/T.jpg' },
  ae_item_sku_info_dtos: [{ sku_id: '12000037000000000001', sku_attr: '', sku_price: '12', sku_available_stock: 5 }],
  ae_store_info: { store_id: 999 },
};

const frenchOnly: StandInProduct = {
  ae_item_base_info_dto: { product_id: '1005001111111111', subject: 'Lamp (EU plug)' },
  ae_item_sku_info_dtos: [{ sku_id: '1', sku_attr: '14:1#White', sku_price: '9.99', sku_available_stock: 1 }],
  shipsTo: ['FR'],
};

const standIn = await startAliExpressStandIn({
  appKey,
  appSecret,
  accessToken,
  products: [sunglasses, timer, frenchOnly],
});
afterAll(() => standIn.close());
const marketplace = createAliExpressMarketplace({
  appKey,
  appSecret,
  accessToken,
  apiBase: standIn.apiBase,
  timeoutMs: 1000,
});

/** An address where nothing listens (a port just freed), so connecting is refused. */
async function closedPort(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function failure(promise: Promise<unknown>): Promise<MarketplaceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketplaceError);
  return error as MarketplaceError;
}

const address = {
  name: 'Ada Lovelace',
  street: '12 Analytical Way',
  line2: 'Apt 3',
  city: 'Portland',
  state: 'OR',
  zipCode: '97201',
  country: 'us',
  phone: '5035550100',
  phoneCountryCode: '+1',
};

describe('signing (integrations 2.2)', () => {
  // Pinned with openssl: printf '%s' '<string>' | openssl dgst -sha256 -hmac '<secret>'.
  test('a business call: sorted key+value pairs, HMAC-SHA256, upper-case hex, sign itself left out', () => {
    const params = {
      timestamp: '1700000000000',
      method: 'aliexpress.ds.product.get',
      app_key: appKey,
      sign_method: 'sha256',
      session: accessToken,
      product_id: '1005006123456789',
      format: 'json',
      simplify: 'false',
    };
    const expected = '788300A497497A5ED79C11E7435005D87B260324215416300E3FC342F219B0DF';
    expect(signAliExpressRequest(params, appSecret)).toBe(expected);
    expect(signAliExpressRequest({ ...params, sign: 'ANYTHING' }, appSecret)).toBe(expected);
    expect(signAliExpressRequest(params, `${appSecret}x`)).not.toBe(expected);
    const built = buildSignedParams(
      'aliexpress.ds.product.get',
      { product_id: '1005006123456789' },
      { appKey, appSecret, accessToken, timestamp: 1_700_000_000_000 },
    );
    expect(built).toEqual({ ...params, sign: expected });
  });

  test('a system (REST-style) API has its path in front of the string', () => {
    const params = {
      app_key: appKey,
      code: '3_500100_abc',
      method: '/auth/token/create',
      sign_method: 'sha256',
      timestamp: '1700000000000',
    };
    expect(signAliExpressRequest(params, appSecret)).toBe(
      '5BD251609D8A91E465066B7749AF087846A0BDBCB14BBCDFC18C53A95E752CC9',
    );
  });
});

describe('parsing (integrations 2.4-2.6)', () => {
  test('decimal prices become integer cents without floating point', () => {
    expect(decimalToCents('3.94')).toBe(394);
    expect(decimalToCents('12')).toBe(1200);
    expect(decimalToCents('0.1')).toBe(10);
    expect(decimalToCents(4.1)).toBe(410);
    expect(decimalToCents('1.005')).toBe(101);
    expect(decimalToCents(' 19.99 ')).toBe(1999);
    for (const bad of ['-1.00', '', '1e3', 'abc', null, undefined, {}, '1.2.3']) expect(decimalToCents(bad)).toBeNull();
  });

  test('lists come bare or wrapped under one singular key; ids beyond 2^53 keep every digit', () => {
    expect(unwrapList([1])).toEqual([1]);
    expect(unwrapList({ ae_item_property: [1, 2] })).toEqual([1, 2]);
    expect(unwrapList(undefined)).toEqual([]);
    expect(unwrapList({})).toEqual([]);
    expect(parseAliExpressJson('{"n":[3000000000000000001,12,1.5]}')).toEqual({ n: ['3000000000000000001', 12, 1.5] });
  });

  test('the variant rules: seller names, marketplace labels, the first SKU image, the dimension names', () => {
    // The doc's own form: bare arrays.
    const product = parseAliExpressProduct(sunglasses);
    expect(product).toMatchObject({
      productId: '4000903675543',
      title: 'Polarized Sunglasses',
      descriptionHtml: '<div>Light frame</div>',
      variantLabel: 'Lenses Color / Lens',
      cost: 315,
      stock: 60,
      isOnSale: true,
    });
    expect(Object.entries(product.specifications)).toEqual([
      ['Brand Name', 'FUQIAN'],
      ['Material', 'Metal, Resin'],
      ['__proto__', 'only a name'],
    ]);
    expect(Object.getPrototypeOf(product.specifications)).toBe(Object.prototype);
    expect(product.variants).toEqual([
      {
        skuId: '12000027158136202',
        skuAttr: '73:175#Black Green;71:193#Polarized',
        name: 'Black Green / Polarized',
        label: 'green / Polarized',
        price: 394,
        salePrice: 315,
        stock: 57,
        image: 'https://ae04.alicdn.com/kf/H.jpg',
      },
      {
        skuId: '12000027158136203',
        skuAttr: '73:29#Amber;71:193#Polarized',
        name: 'Amber / Polarized',
        label: 'orange / Polarized',
        price: 410,
        salePrice: null,
        stock: 3,
        image: null,
      },
    ]);
    // https only, duplicates and non-web addresses gone, the first 10.
    expect(product.imageUrls).toHaveLength(10);
    expect(product.imageUrls.slice(0, 4)).toEqual([
      'https://ae04.alicdn.com/kf/A.jpg',
      'https://ae04.alicdn.com/kf/B.jpg',
      'https://ae04.alicdn.com/kf/C.jpg',
      'https://ae04.alicdn.com/kf/P0.jpg',
    ]);
  });

  test('placeholder pictures (no photo, placeholder, transparent) do not take one of the 10 places', () => {
    const product = parseAliExpressProduct({
      ...timer,
      ae_multimedia_info_dto: {
        image_urls: [
          'https://ae01.alicdn.com/kf/no-photo.png',
          'https://ae01.alicdn.com/kf/Placeholder_800.jpg',
          'https://ae01.alicdn.com/kf/transparent.png',
          ...Array.from({ length: 11 }, (_, i) => `https://ae01.alicdn.com/kf/R${i}.jpg`),
        ].join(';'),
      },
    });
    expect(product.imageUrls).toEqual(Array.from({ length: 10 }, (_, i) => `https://ae01.alicdn.com/kf/R${i}.jpg`));
  });

  test('a single SKU without properties, names from sku_attr alone, repeated sku_attr, bad prices and currencies', () => {
    const single = parseAliExpressProduct(timer);
    expect(single.variants).toEqual([
      {
        skuId: '12000037000000000001',
        skuAttr: '',
        name: 'Standard',
        label: 'Standard',
        price: 1200,
        salePrice: null,
        stock: 5,
        image: null,
      },
    ]);
    expect(single.variantLabel).toBe('Style');

    const fromAttr = parseAliExpressProduct({
      ae_item_base_info_dto: { product_id: 1, subject: 'x' },
      ae_item_sku_info_dtos: [
        { sku_id: '1', sku_attr: '14:193#Basalt Black', sku_price: '1.00' },
        { sku_id: '2', sku_attr: '14:193#Basalt Black', sku_price: '2.00' },
        { sku_id: '3', sku_attr: '14:771', sku_price: '3.00' },
      ],
    });
    expect(fromAttr.variants.map((v) => [v.skuId, v.name, v.label])).toEqual([
      ['1', 'Basalt Black', 'Basalt Black'],
      ['3', 'SKU 3', 'SKU 3'],
    ]);

    const sku = { sku_id: '1', sku_attr: '', sku_price: '1.00' };
    const base = { product_id: 1, subject: 'x' };
    const bad = (result: unknown) => {
      try {
        parseAliExpressProduct(result);
      } catch (error) {
        return (error as MarketplaceError).code;
      }
      return 'parsed';
    };
    expect(bad({ ae_item_base_info_dto: base, ae_item_sku_info_dtos: [{ ...sku, sku_price: 'free' }] })).toBe(
      'bad_response',
    );
    expect(bad({ ae_item_base_info_dto: base, ae_item_sku_info_dtos: [{ ...sku, currency_code: 'EUR' }] })).toBe(
      'bad_response',
    );
    expect(bad({ ae_item_base_info_dto: base, ae_item_sku_info_dtos: [] })).toBe('bad_response');
    expect(bad({ ae_item_base_info_dto: { subject: 'no id' }, ae_item_sku_info_dtos: [sku] })).toBe('bad_response');
  });

  test('order statuses in the shop terms', () => {
    expect(toSupplierOrderStatus('PLACE_ORDER_SUCCESS', 'NO_LOGISTICS')).toBe('placed');
    expect(toSupplierOrderStatus('WAIT_SELLER_SEND_GOODS', 'NO_LOGISTICS')).toBe('processing');
    expect(toSupplierOrderStatus('WAIT_BUYER_ACCEPT_GOODS', 'SELLER_SEND_GOODS')).toBe('shipped');
    expect(toSupplierOrderStatus('FINISH', 'BUYER_ACCEPT_GOODS')).toBe('delivered');
    expect(toSupplierOrderStatus('FINISH', 'NO_LOGISTICS')).toBe('cancelled');
    expect(toSupplierOrderStatus('FUND_PROCESSING', 'BUYER_ACCEPT_GOODS')).toBe('delivered');
    expect(toSupplierOrderStatus('IN_ISSUE', '')).toBe('on_hold');
    expect(toSupplierOrderStatus('IN_CANCEL', 'NO_LOGISTICS')).toBe('on_hold');
    expect(toSupplierOrderStatus('SOMETHING_NEW', '')).toBe('unknown');
  });

  test('the gateway error envelope', () => {
    const code = (c: string, msg = '') => mapGatewayError('m', { code: c, msg }).code;
    expect(code('InvalidAppKey', 'The specified App Key is invalid')).toBe('auth');
    expect(code('IncompleteSignature', 'The request signature does not conform to platform standards')).toBe('auth');
    expect(code('IllegalAccessToken', 'The specified access token is invalid or expired')).toBe('auth');
    expect(code('ApiCallLimit', 'Api access frequency exceeds the limit')).toBe('rate_limited');
    expect(code('MissingParameter')).toBe('invalid_request');
    expect(code('isp.remote-service-error')).toBe('outage');
    expect(code('B_SOMETHING', 'refused')).toBe('rejected');
    expect(mapGatewayError('m', { code: 'ApiCallLimit' }).retryAfterMs).toBe(2000);
  });
});

describe('the AliExpress marketplace over HTTP against the stand-in', () => {
  test('a product: a signed form POST to /sync, the token and signature in the body only, the wrapped wire read', async () => {
    const product = await marketplace.getProduct('4000903675543');
    expect(product).toEqual(parseAliExpressProduct(sunglasses));
    const call = standIn.received.at(-1);
    expect(call?.url).toBe('/sync');
    expect(call?.params).toMatchObject({
      method: 'aliexpress.ds.product.get',
      app_key: appKey,
      session: accessToken,
      sign_method: 'sha256',
      product_id: '4000903675543',
      ship_to_country: 'US',
      target_currency: 'USD',
      target_language: 'en',
      format: 'json',
    });
    expect(Number(call?.params.timestamp)).toBeGreaterThan(Date.now() - 60_000);
  });

  test('the stand-in checks the signature: a parameter changed after signing is refused; access_token is also accepted', async () => {
    const post = async (params: Record<string, string>) => {
      const response = await fetch(`${standIn.apiBase}/sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
      });
      return (await response.json()) as Record<string, { code?: string; result?: unknown }>;
    };
    const signed = buildSignedParams(
      'aliexpress.ds.product.get',
      { product_id: '4000903675543', ship_to_country: 'US' },
      { appKey, appSecret, accessToken, timestamp: Date.now() },
    );
    expect((await post(signed)).aliexpress_ds_product_get_response?.result).toBeDefined();
    expect((await post({ ...signed, product_id: '1005006123456789' })).error_response?.code).toBe(
      'IncompleteSignature',
    );
    expect((await post({ ...signed, sign: signed.sign?.toLowerCase() ?? '' })).error_response?.code).toBe(
      'IncompleteSignature',
    );
    const { session: _session, sign: _sign, ...rest } = signed;
    const restStyle = { ...rest, access_token: accessToken };
    const answer = await post({ ...restStyle, sign: signAliExpressRequest(restStyle, appSecret) });
    expect(answer.aliexpress_ds_product_get_response?.result).toBeDefined();
  });

  test('a missing product, one not sold here, and ids that are not ids', async () => {
    expect((await failure(marketplace.getProduct('4000000000000'))).code).toBe('not_found');
    const notHere = await failure(marketplace.getProduct('1005001111111111'));
    expect(notHere.code).toBe('not_available');
    expect(notHere.transient).toBe(false);
    const before = standIn.received.length;
    for (const bad of ['abc', '1\u00002', '', '1'.repeat(21), ' ']) {
      expect((await failure(marketplace.getProduct(bad))).code).toBe('invalid_request');
    }
    expect(standIn.received.length).toBe(before);
  });

  test('a refused app key, secret or token is auth, final, and no credential is in any message', async () => {
    const wrong = (overrides: Partial<Parameters<typeof createAliExpressMarketplace>[0]>) =>
      createAliExpressMarketplace({ appKey, appSecret, accessToken, apiBase: standIn.apiBase, ...overrides });
    const errors = [
      await failure(wrong({ appKey: '999999' }).getProduct('4000903675543')),
      await failure(wrong({ appSecret: 'not-the-secret-0123456789' }).getProduct('4000903675543')),
      await failure(wrong({ accessToken: () => 'expired-token-0000' }).getProduct('4000903675543')),
    ];
    expect(errors.map((e) => [e.code, e.transient])).toEqual([
      ['auth', false],
      ['auth', false],
      ['auth', false],
    ]);
    expect(errors[0]?.message).toContain('InvalidAppKey');
    expect(errors[1]?.message).toContain('IncompleteSignature');
    expect(errors[2]?.message).toContain('IllegalAccessToken');
    expect(errors[2]?.requestId).toMatch(/^standin\d+$/);
    // Even a marketplace echoing a credential back does not put it in our message.
    standIn.failNext({
      errorResponse: { code: 'IllegalAccessToken', msg: `token ${accessToken} / ${appSecret} refused` },
    });
    const echoed = await failure(marketplace.getProduct('4000903675543'));
    // Nor a piece of one, where the marketplace's words are cut short.
    standIn.failNext({ errorResponse: { code: 'IllegalAccessToken', msg: `${'x'.repeat(190)}${accessToken}` } });
    const cut = await failure(marketplace.getProduct('4000903675543'));
    expect(cut.message).not.toContain(accessToken.slice(0, 6));
    for (const error of [...errors, echoed]) {
      expect(error.message).not.toContain(accessToken);
      expect(error.message).not.toContain(appSecret);
      expect(error.message).not.toContain('not-the-secret');
      expect(error.message).not.toContain('expired-token');
    }
    expect(echoed.message).toContain('[redacted]');
  });

  test('rate limits, outages and unreadable answers', async () => {
    standIn.failNext(
      { errorResponse: { code: 'ApiCallLimit', msg: 'Api access frequency exceeds the limit' } },
      { status: 429 },
      { status: 503 },
      { raw: '<html>gateway</html>' },
      { raw: '{"something_else_response":{}}' },
      { hang: true },
    );
    const results = [];
    for (let i = 0; i < 6; i++) {
      const error = await failure(marketplace.getProduct('4000903675543'));
      results.push([error.code, error.transient]);
    }
    expect(results).toEqual([
      ['rate_limited', true],
      ['rate_limited', true],
      ['outage', true],
      ['bad_response', false],
      ['bad_response', false],
      ['outage', true],
    ]);
    const down = createAliExpressMarketplace({ appKey, appSecret, accessToken, apiBase: await closedPort() });
    expect((await failure(down.getProduct('4000903675543'))).code).toBe('outage');
  });

  const order = (orderId: string, lines: SupplierOrderRequest['lines']): SupplierOrderRequest => ({
    orderId,
    address,
    lines,
  });

  test('placing an order: our order id as out_order_id, placed once however often it is asked', async () => {
    const request = order('a1b2c3d4e5f60718', [
      { productId: '4000903675543', skuAttr: '73:175#Black Green;71:193#Polarized', quantity: 2 },
      // A single-SKU product is ordered with sku_attr "" (doc FAQ), which is signed as an empty value.
      { productId: '1005006123456789', skuAttr: '', quantity: 1 },
    ]);
    const first = await marketplace.placeOrder(request);
    // Two stores, two AliExpress orders; ids above 2^53 keep every digit.
    expect(first.supplierOrderIds).toHaveLength(2);
    for (const id of first.supplierOrderIds) expect(standIn.orders.get(id)?.outOrderId).toBe('a1b2c3d4e5f60718');
    const sent = standIn.received.at(-1)?.params ?? {};
    expect(JSON.parse(sent.param_place_order_request4_open_api_d_t_o ?? '')).toEqual({
      out_order_id: 'a1b2c3d4e5f60718',
      logistics_address: {
        full_name: 'Ada Lovelace',
        contact_person: 'Ada Lovelace',
        address: '12 Analytical Way',
        address2: 'Apt 3',
        city: 'Portland',
        province: 'OR',
        country: 'US',
        zip: '97201',
        mobile_no: '5035550100',
        phone_country: '+1',
        locale: 'en_US',
      },
      product_items: [
        { product_id: '4000903675543', sku_attr: '73:175#Black Green;71:193#Polarized', product_count: 2 },
        { product_id: '1005006123456789', sku_attr: '', product_count: 1 },
      ],
    });
    expect(JSON.parse(sent.ds_extend_request ?? '')).toEqual({ payment: { try_to_pay: 'false', pay_currency: 'USD' } });

    const ordersBefore = standIn.orders.size;
    expect(await marketplace.placeOrder(request)).toEqual(first);
    expect(standIn.orders.size).toBe(ordersBefore);
  });

  test('an order refused, malformed, or with an outcome that cannot be known', async () => {
    const refused = await failure(
      marketplace.placeOrder(order('0000000000000001', [{ productId: '4000903675543', skuAttr: 'nope', quantity: 1 }])),
    );
    expect([refused.code, refused.transient]).toEqual(['rejected', false]);
    expect(refused.message).toContain('STANDIN_SKU_NOT_FOUND');

    const line = { productId: '1005006123456789', skuAttr: '', quantity: 1 };
    const before = standIn.received.length;
    for (const bad of [
      order('', [line]),
      order('x\u0000y', [line]),
      order('0000000000000002', []),
      order('0000000000000002', [{ ...line, quantity: 0 }]),
      order('0000000000000002', [{ ...line, quantity: 1.5 }]),
      order('0000000000000002', [{ ...line, productId: 'https://evil' }]),
      { orderId: '0000000000000002', address: { ...address, zipCode: ' ' }, lines: [line] },
      { orderId: '0000000000000002', address: { ...address, country: 'USA' }, lines: [line] },
      { orderId: '0000000000000002', address: { ...address, city: 'Port\nland' }, lines: [line] },
    ]) {
      expect((await failure(marketplace.placeOrder(bad as SupplierOrderRequest))).code).toBe('invalid_request');
    }
    expect(standIn.received.length).toBe(before);

    // After a 5xx or a timeout the order may exist: unknown, transient; asking again places it once.
    standIn.failNext(
      { status: 502 },
      { hang: true },
      { raw: 'not json' },
      { errorResponse: { code: 'isp.remote-service-error', msg: 'Remote service error' } },
    );
    const request = order('0000000000000003', [line]);
    for (let i = 0; i < 4; i++) {
      const unknown = await failure(marketplace.placeOrder(request));
      expect([unknown.code, unknown.transient]).toEqual(['unknown_outcome', true]);
    }
    // Throttled before anything was made: a rate limit, not an unknown outcome.
    standIn.failNext({ errorResponse: { code: 'ApiCallLimit', msg: 'Api access frequency exceeds the limit' } });
    expect((await failure(marketplace.placeOrder(request))).code).toBe('rate_limited');
    const placed = await marketplace.placeOrder(request);
    expect(await marketplace.placeOrder(request)).toEqual(placed);
    expect([...standIn.orders.values()].filter((o) => o.outOrderId === '0000000000000003')).toHaveLength(1);

    // A refused connection never reached the marketplace: nothing can have been placed.
    const down = createAliExpressMarketplace({ appKey, appSecret, accessToken, apiBase: await closedPort() });
    expect((await failure(down.placeOrder(request))).code).toBe('outage');
  });

  test('an order status and its tracking, from placed to delivered', async () => {
    const { supplierOrderIds } = await marketplace.placeOrder(
      order('0000000000000004', [{ productId: '4000903675543', skuAttr: '73:29#Amber;71:193#Polarized', quantity: 1 }]),
    );
    const id = supplierOrderIds[0] ?? '';
    expect(await marketplace.getOrder(id)).toEqual({
      supplierOrderId: id,
      status: 'placed',
      supplierStatus: 'PLACE_ORDER_SUCCESS',
      trackingNumbers: [],
    });
    expect(await marketplace.getTracking(id)).toEqual([]);

    standIn.setStatus(id, 'WAIT_SELLER_SEND_GOODS');
    expect((await marketplace.getOrder(id)).status).toBe('processing');

    standIn.ship(id, {
      trackingNumber: 'LP00123456789012',
      carrier: 'CAINIAO_STANDARD',
      events: [
        { timeMs: 1_700_000_000_000, name: 'Accepted', description: 'Parcel accepted by the carrier' },
        { timeMs: 1_700_100_000_000, name: 'In transit', description: 'Departed from the sorting centre' },
      ],
    });
    expect(await marketplace.getOrder(id)).toMatchObject({
      status: 'shipped',
      trackingNumbers: [{ trackingNumber: 'LP00123456789012', carrier: 'CAINIAO_STANDARD' }],
    });
    expect(await marketplace.getTracking(id)).toEqual([
      {
        trackingNumber: 'LP00123456789012',
        carrier: 'CAINIAO_STANDARD',
        events: [
          { at: new Date(1_700_100_000_000), description: 'In transit: Departed from the sorting centre' },
          { at: new Date(1_700_000_000_000), description: 'Accepted: Parcel accepted by the carrier' },
        ],
      },
    ]);
    expect(standIn.received.at(-1)?.params).toMatchObject({ ae_order_id: id, language: 'en_US' });

    standIn.setStatus(id, 'FINISH', 'BUYER_ACCEPT_GOODS');
    expect((await marketplace.getOrder(id)).status).toBe('delivered');

    expect((await failure(marketplace.getOrder('123'))).code).toBe('not_found');
    expect((await failure(marketplace.getTracking('123'))).code).toBe('rejected');
    expect((await failure(marketplace.getOrder('12a'))).code).toBe('invalid_request');
  });
});
