import type { CategoryMapping, SocialShop, SyncRun } from '#common/contracts/admin/social-shop.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';

/** Spec 9: the authorisation opens in a popup of 600x700. */
export const AUTHORISATION_POPUP = { name: 'tiktok-shop-authorisation', width: 600, height: 700 } as const;
/** Spec 9: the shops are read again 5 s after authorising (the channel lists a new shop with a delay). */
export const SHOPS_REFRESH_AFTER_AUTHORISING_MS = 5000;
/** How often a running sync's progress is read again. */
export const SYNC_POLL_MS = 1000;

/** The popup's window features: 600x700, centred over the back office when its position is known. */
export function popupFeatures(screen?: { left: number; top: number; width: number; height: number }): string {
  const { width, height } = AUTHORISATION_POPUP;
  const place = screen
    ? `,left=${Math.max(0, Math.round(screen.left + (screen.width - width) / 2))},top=${Math.max(0, Math.round(screen.top + (screen.height - height) / 2))}`
    : '';
  return `popup,width=${width},height=${height}${place}`;
}

/** Spec 8, social shop auth-url: 403 and 401 have their own texts, otherwise the server's message. */
export function authUrlFailure(error: unknown): string {
  if (error instanceof ApiRequestError && error.status === 403) return 'API access not approved yet';
  if (error instanceof ApiRequestError && error.status === 401) return 'credentials invalid';
  return errorMessage(error, 'Failed to generate authorization URL');
}

/** Spec 8: a 404 from the shops call means no connection yet (no shops), not a failure. */
export const isNoShopsAnswer = (error: unknown) => error instanceof ApiRequestError && error.status === 404;

/** Spec 8's failure texts of the other social-shop calls, word for word. */
export const failures = {
  loadShops: 'Failed to load shops',
  resolveShops: 'Failed to resolve shops',
  products: 'Failed to sync products',
  inventory: 'Failed to sync inventory',
  noShopSelected: 'Please select a shop first.',
} as const;

export const isSyncRunning = (run: Pick<SyncRun, 'status'>) => run.status === 'queued' || run.status === 'running';

const kindNames = { products: 'Product sync', inventory: 'Inventory sync' } as const;
const itemNames = { products: ['product', 'products'], inventory: ['SKU', 'SKUs'] } as const;

const count = (n: number, [one, many]: readonly [string, string]) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Where a run stands, in one sentence (what the progress region announces on each change of state). */
export function syncStateText(run: SyncRun): string {
  const what = kindNames[run.kind];
  if (run.status === 'queued') return `${what} queued`;
  if (run.status === 'running') return `${what} running`;
  if (run.status === 'failed') return `${what} failed${run.error ? `: ${run.error}` : ''}`;
  const result = run.result;
  if (!result) return `${what} finished`;
  return `${what} finished: ${result.synced.toLocaleString('en-US')} synced, ${result.failed.toLocaleString('en-US')} failed`;
}

/** "3 of 12 products" while a run works through its items. */
export function syncProgressText(run: SyncRun): string {
  return `${run.done.toLocaleString('en-US')} of ${count(run.total, itemNames[run.kind])}`;
}

/** Only ready shops can be synced: a pending one has no cipher until Resolve Shops. */
export function selectableShopId(shops: readonly SocialShop[], remembered: string | null): string | null {
  return shops.some((shop) => shop.shopId === remembered && shop.status === 'ready') ? remembered : null;
}

/** One line saying how far the connection has got, from the shops listed. */
export function connectionText(shops: readonly SocialShop[]): string {
  if (shops.length === 0) return 'Not connected yet. Connect a TikTok Shop to list products there.';
  const ready = shops.filter((shop) => shop.status === 'ready').length;
  const pending = shops.length - ready;
  const parts = [`${ready} ready`, ...(pending > 0 ? [`${pending} pending (use Resolve Shops)`] : [])];
  return `Connected to TikTok Shop: ${count(shops.length, ['shop', 'shops'])}, ${parts.join(', ')}.`;
}

export const mappingSourceText: Record<NonNullable<CategoryMapping['source']> | 'none', string> = {
  recommended: 'Recommended by TikTok',
  owner: 'Chosen by you',
  none: 'Not mapped: the next sync asks TikTok for a recommendation',
};
