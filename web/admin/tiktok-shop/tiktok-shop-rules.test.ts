import { describe, expect, test } from 'vitest';
import type { SocialShop, SyncRun } from '#common/contracts/admin/social-shop.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import {
  authUrlFailure,
  connectionText,
  isNoShopsAnswer,
  isSyncRunning,
  popupFeatures,
  selectableShopId,
  syncProgressText,
  syncStateText,
} from './tiktok-shop-rules.ts';

const shop = (shopId: string, status: SocialShop['status']): SocialShop => ({
  shopId,
  shopName: `Shop ${shopId}`,
  status,
  region: 'US',
  shopsDiscovered: 1,
  createdAt: '2026-11-26T10:00:00.000Z',
});
const run = (overrides: Partial<SyncRun>): SyncRun => ({
  syncId: 's1',
  shopId: '7001',
  kind: 'products',
  status: 'running',
  done: 3,
  total: 12,
  forceAll: false,
  startedAt: '2026-11-26T10:00:00.000Z',
  finishedAt: null,
  result: null,
  error: null,
  ...overrides,
});

describe('the auth-url failure texts (spec 8, word for word)', () => {
  test('403 and 401 have their own texts; otherwise the server’s message, else the fallback', () => {
    expect(authUrlFailure(new ApiRequestError(403, 'Forbidden'))).toBe('API access not approved yet');
    expect(authUrlFailure(new ApiRequestError(401, 'Unauthorized'))).toBe('credentials invalid');
    expect(authUrlFailure(new ApiRequestError(502, 'TikTok Shop is not answering'))).toBe(
      'TikTok Shop is not answering',
    );
    expect(authUrlFailure(new ApiRequestError(500, ''))).toBe('Failed to generate authorization URL');
    expect(authUrlFailure(new TypeError('Failed to fetch'))).toBe('Failed to generate authorization URL');
  });

  test('a 404 from the shops call is no shops, anything else a failure', () => {
    expect(isNoShopsAnswer(new ApiRequestError(404, 'Not found'))).toBe(true);
    expect(isNoShopsAnswer(new ApiRequestError(500, 'Boom'))).toBe(false);
    expect(isNoShopsAnswer(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('the popup (spec 9: 600x700)', () => {
  test('is 600 by 700, centred over the window when its place is known', () => {
    expect(popupFeatures()).toBe('popup,width=600,height=700');
    expect(popupFeatures({ left: 100, top: 50, width: 1400, height: 900 })).toBe(
      'popup,width=600,height=700,left=500,top=150',
    );
    expect(popupFeatures({ left: 0, top: 0, width: 400, height: 300 })).toBe('popup,width=600,height=700,left=0,top=0');
  });
});

describe('shop selection', () => {
  test('only a ready shop still listed stays selected', () => {
    const shops = [shop('7001', 'ready'), shop('c-2', 'pending')];
    expect(selectableShopId(shops, '7001')).toBe('7001');
    expect(selectableShopId(shops, 'c-2')).toBeNull();
    expect(selectableShopId(shops, '9999')).toBeNull();
    expect(selectableShopId(shops, null)).toBeNull();
  });

  test('the connection line counts ready and pending shops', () => {
    expect(connectionText([])).toMatch(/^Not connected yet/);
    expect(connectionText([shop('c-1', 'pending')])).toBe(
      'Connected to TikTok Shop: 1 shop, 0 ready, 1 pending (use Resolve Shops).',
    );
    expect(connectionText([shop('7001', 'ready'), shop('7002', 'ready')])).toBe(
      'Connected to TikTok Shop: 2 shops, 2 ready.',
    );
  });
});

describe('sync runs', () => {
  test('queued and running runs are followed; finished and failed ones are not', () => {
    expect(isSyncRunning({ status: 'queued' })).toBe(true);
    expect(isSyncRunning({ status: 'running' })).toBe(true);
    expect(isSyncRunning({ status: 'finished' })).toBe(false);
    expect(isSyncRunning({ status: 'failed' })).toBe(false);
  });

  test('progress and state read as sentences', () => {
    expect(syncProgressText(run({}))).toBe('3 of 12 products');
    expect(syncProgressText(run({ kind: 'inventory', done: 1, total: 1 }))).toBe('1 of 1 SKU');
    expect(syncStateText(run({ status: 'queued' }))).toBe('Product sync queued');
    expect(syncStateText(run({ kind: 'inventory' }))).toBe('Inventory sync running');
    expect(syncStateText(run({ status: 'failed', error: 'Shop not authorised' }))).toBe(
      'Product sync failed: Shop not authorised',
    );
    expect(
      syncStateText(
        run({
          status: 'finished',
          result: { synced: 11, failed: 1, results: [], errors: [], note: '' },
        }),
      ),
    ).toBe('Product sync finished: 11 synced, 1 failed');
  });
});
