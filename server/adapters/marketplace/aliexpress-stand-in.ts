import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signAliExpressRequest } from './aliexpress-marketplace.ts';

/*
 * A local stand-in of AliExpress's Open Platform gateway for the dropshipping calls we make (our
 * machines cannot reach the real one): POST /sync with the form parameters of integrations 2.1,
 * the signature checked with the app secret (2.2), the access token under `session` or
 * `access_token`, answers in the wire envelopes (2.4-2.6: `…_response`, lists wrapped in objects
 * under a singular key, ids beyond 2^53 as bare JSON numbers), the gateway's `error_response`, and
 * failures on demand. Error codes not in the integration facts (an unknown SKU, too few units)
 * are this stand-in's own.
 */

/** A product as the DS API documents it (bare arrays); the stand-in wraps its lists on the wire. */
export type StandInProduct = {
  ae_item_base_info_dto: { product_id: number | string; subject: string } & Record<string, unknown>;
  ae_multimedia_info_dto?: { image_urls?: string } & Record<string, unknown>;
  ae_item_sku_info_dtos: ({
    sku_id: string;
    sku_attr: string;
    sku_available_stock?: number;
    ae_sku_property_dtos?: Record<string, unknown>[];
  } & Record<string, unknown>)[];
  ae_item_properties?: Record<string, unknown>[];
  ae_store_info?: { store_id: number } & Record<string, unknown>;
  /** Countries it is sold to; unset: everywhere. */
  shipsTo?: string[];
};

export type StandInOrder = {
  id: string;
  outOrderId: string;
  items: { product_id: string; sku_attr: string; product_count: number }[];
  address: Record<string, unknown>;
  orderStatus: string;
  logisticsStatus: string;
  shipments: {
    trackingNumber: string;
    carrier: string;
    events: { timeMs: number; name: string; description: string }[];
  }[];
};

export type StandInFailure =
  | { status: number }
  | { errorResponse: { code: string; msg: string } }
  | { raw: string }
  | { hang: true };

/** Marks a value to be written as a bare JSON number (order ids are int64 on the wire). */
const INT = '@@int:';

function wire(value: unknown): string {
  return JSON.stringify(value).replace(new RegExp(`"${INT}(\\d+)"`, 'g'), '$1');
}

function wrapped<T>(key: string, list: T[] | undefined) {
  return { [key]: list ?? [] };
}

/** The product's `result` as the gateway sends it: lists wrapped in objects under a singular key. */
function productOnWire(product: StandInProduct) {
  const { shipsTo: _shipsTo, ...result } = product;
  return {
    ...result,
    ae_multimedia_info_dto: {
      ...(product.ae_multimedia_info_dto ?? {}),
      ae_video_dtos: wrapped('ae_video_d_t_o', []),
    },
    ae_item_sku_info_dtos: wrapped(
      'ae_item_sku_info_d_t_o',
      product.ae_item_sku_info_dtos.map((sku) => ({
        ...sku,
        ae_sku_property_dtos: wrapped('ae_sku_property_d_t_o', sku.ae_sku_property_dtos),
      })),
    ),
    ae_item_properties: wrapped('ae_item_property', product.ae_item_properties),
  };
}

function sameText(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startAliExpressStandIn({
  appKey,
  appSecret,
  accessToken,
  products,
}: {
  appKey: string;
  appSecret: string;
  accessToken: string;
  products: StandInProduct[];
}) {
  const catalogue = new Map(products.map((p) => [String(p.ae_item_base_info_dto.product_id), p]));
  const orders = new Map<string, StandInOrder>();
  const byOutOrderId = new Map<string, string[]>();
  const failures: StandInFailure[] = [];
  /** Every call that passed the gateway's checks: its URL and parameters (the signature left out). */
  const received: { url: string; method: string; params: Record<string, string> }[] = [];
  let requestCount = 0;
  // Above 2^53, so that a client reading them as JSON numbers would lose digits.
  let nextOrderId = 3_000_000_000_000_000_001n;

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requestCount += 1;
    const requestId = `standin${requestCount}`;
    const send = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
      response.end(body);
    };
    const gatewayError = (code: string, msg: string) =>
      send(200, wire({ error_response: { type: 'ISV', code, msg, request_id: requestId } }));

    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method !== 'POST' || url.pathname !== '/sync') {
      return gatewayError('InvalidApiPath', 'The specified API path is invalid');
    }
    // Parameters may come in the query or the form body, as the official SDKs send them either way.
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    const type = request.headers['content-type'] ?? '';
    if (type.startsWith('application/x-www-form-urlencoded')) {
      Object.assign(params, Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    }
    if (!sameText(params.app_key ?? '', appKey)) {
      return gatewayError('InvalidAppKey', 'The specified App Key is invalid');
    }
    const sign = params.sign ?? '';
    if (params.sign_method !== 'sha256' || !/^\d{13}$/.test(params.timestamp ?? '') || !params.method) {
      return gatewayError('IncompleteSignature', 'The request signature does not conform to platform standards');
    }
    if (!sameText(sign, signAliExpressRequest(params, appSecret))) {
      return gatewayError('IncompleteSignature', 'The request signature does not conform to platform standards');
    }
    if (!sameText(params.session ?? params.access_token ?? '', accessToken)) {
      return gatewayError('IllegalAccessToken', 'The specified access token is invalid or expired');
    }
    const { sign: _sign, ...kept } = params;
    received.push({ url: request.url ?? '', method: params.method, params: kept });

    const failure = failures.shift();
    if (failure) {
      if ('hang' in failure) return; // never answers: the client's timeout must end the wait
      if ('status' in failure) return send(failure.status, wire({ message: 'stand-in failure' }));
      if ('raw' in failure) return send(200, failure.raw);
      return gatewayError(failure.errorResponse.code, failure.errorResponse.msg);
    }

    const answer = (method: string, body: Record<string, unknown>) =>
      send(200, wire({ [`${method.replaceAll('.', '_')}_response`]: { ...body, request_id: requestId } }));
    const json = (text: string | undefined): Record<string, unknown> | null => {
      try {
        const value = JSON.parse(text ?? '');
        return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
      } catch {
        return null;
      }
    };

    switch (params.method) {
      case 'aliexpress.ds.product.get': {
        if (!params.product_id || !params.ship_to_country) {
          return gatewayError('MissingParameter', 'product_id and ship_to_country are required');
        }
        const product = catalogue.get(params.product_id);
        if (!product) return answer(params.method, { rsp_code: 605, rsp_msg: 'ITEM_ID_NOT_FOUND' });
        if (product.shipsTo && !product.shipsTo.includes(params.ship_to_country)) {
          return answer(params.method, { rsp_code: 602, rsp_msg: 'item not allowed to this country' });
        }
        return answer(params.method, { result: productOnWire(product), rsp_code: 200, rsp_msg: 'Call succeeds' });
      }

      case 'aliexpress.ds.order.create': {
        const placed = json(params.param_place_order_request4_open_api_d_t_o);
        const extend = json(params.ds_extend_request);
        if (!placed || !extend || typeof placed.out_order_id !== 'string' || !placed.out_order_id) {
          return gatewayError('InvalidParameter', 'param_place_order_request4_open_api_d_t_o is invalid');
        }
        const refuse = (code: string, msg: string) =>
          answer(params.method ?? '', { result: { is_success: false, error_code: code, error_msg: msg } });
        const replay = byOutOrderId.get(placed.out_order_id);
        if (replay) {
          return answer(params.method, {
            result: { is_success: true, order_list: { number: replay.map((id) => `${INT}${id}`) } },
          });
        }
        const address = (placed.logistics_address ?? {}) as Record<string, unknown>;
        for (const field of ['full_name', 'address', 'city', 'country', 'zip']) {
          if (typeof address[field] !== 'string' || !(address[field] as string).trim()) {
            return refuse('B_DROPSHIPPER_DELIVERY_ADDRESS_VALIDATE_FAIL', `logistics_address.${field} is required`);
          }
        }
        const items = Array.isArray(placed.product_items) ? (placed.product_items as Record<string, unknown>[]) : [];
        if (items.length === 0) return refuse('STANDIN_NO_ITEMS', 'product_items is empty');
        const byStore = new Map<string, StandInOrder['items']>();
        for (const item of items) {
          const product = catalogue.get(String(item.product_id));
          const sku = product?.ae_item_sku_info_dtos.find((s) => s.sku_attr === item.sku_attr);
          const count = item.product_count;
          if (!product || !sku) {
            return refuse('STANDIN_SKU_NOT_FOUND', `no SKU ${String(item.sku_attr)} of ${String(item.product_id)}`);
          }
          if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
            return refuse('STANDIN_BAD_COUNT', 'product_count must be a positive integer');
          }
          if (count > (sku.sku_available_stock ?? 0)) {
            return refuse('STANDIN_OUT_OF_STOCK', `only ${sku.sku_available_stock ?? 0} left`);
          }
          const store = String(product.ae_store_info?.store_id ?? 'store');
          const lines = byStore.get(store) ?? [];
          lines.push({ product_id: String(item.product_id), sku_attr: String(item.sku_attr), product_count: count });
          byStore.set(store, lines);
        }
        // One AliExpress order per store, as the marketplace splits a cart.
        const ids: string[] = [];
        for (const lines of byStore.values()) {
          const id = String(nextOrderId++);
          ids.push(id);
          orders.set(id, {
            id,
            outOrderId: placed.out_order_id,
            items: lines,
            address,
            orderStatus: 'PLACE_ORDER_SUCCESS',
            logisticsStatus: 'NO_LOGISTICS',
            shipments: [],
          });
        }
        byOutOrderId.set(placed.out_order_id, ids);
        return answer(params.method, {
          result: { is_success: true, order_list: { number: ids.map((id) => `${INT}${id}`) } },
        });
      }

      case 'aliexpress.trade.ds.order.get': {
        const query = json(params.single_order_query);
        if (!query || query.order_id === undefined) {
          return gatewayError('MissingParameter', 'single_order_query.order_id is required');
        }
        const order = orders.get(String(query.order_id));
        if (!order) return answer(params.method, {});
        return answer(params.method, {
          result: {
            order_status: order.orderStatus,
            logistics_status: order.logisticsStatus,
            logistics_info_list: wrapped(
              'ae_order_logistics_info',
              order.shipments.map((s) => ({ logistics_no: s.trackingNumber, logistics_service: s.carrier })),
            ),
          },
        });
      }

      case 'aliexpress.ds.order.tracking.get': {
        if (!params.ae_order_id || !params.language) {
          return gatewayError('MissingParameter', 'ae_order_id and language are required');
        }
        const order = orders.get(params.ae_order_id);
        if (!order) return answer(params.method, { result: { ret: false, code: '1001', msg: 'order not found' } });
        return answer(params.method, {
          result: {
            ret: true,
            code: '0',
            data: {
              tracking_detail_line_list: wrapped(
                'tracking_detail',
                order.shipments.map((s) => ({
                  mail_no: s.trackingNumber,
                  carrier_name: s.carrier,
                  detail_node_list: wrapped(
                    'detail_node',
                    [...s.events]
                      .sort((a, b) => b.timeMs - a.timeMs)
                      .map((e) => ({
                        time_stamp: e.timeMs,
                        tracking_name: e.name,
                        tracking_detail_desc: e.description,
                      })),
                  ),
                })),
              ),
            },
          },
        });
      }

      default:
        return gatewayError('InvalidApiPath', 'The specified API is invalid');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    apiBase: `http://127.0.0.1:${port}`,
    received,
    orders,
    /** The next calls (past the signature and token checks) answer these, in order. */
    failNext: (...next: StandInFailure[]) => failures.push(...next),
    /** Moves an order, as the marketplace would (e.g. 'WAIT_SELLER_SEND_GOODS' once paid). */
    setStatus(orderId: string, orderStatus: string, logisticsStatus?: string) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`the stand-in has no order ${orderId}`);
      order.orderStatus = orderStatus;
      if (logisticsStatus) order.logisticsStatus = logisticsStatus;
    },
    /** Ships an order with a parcel and its tracking events. */
    ship(orderId: string, shipment: StandInOrder['shipments'][number]) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`the stand-in has no order ${orderId}`);
      order.shipments.push(shipment);
      order.orderStatus = 'WAIT_BUYER_ACCEPT_GOODS';
      order.logisticsStatus = 'SELLER_SEND_GOODS';
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type AliExpressStandIn = Awaited<ReturnType<typeof startAliExpressStandIn>>;
