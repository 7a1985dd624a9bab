import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  getSocialShopAuthUrl,
  getSocialShopLatestSyncs,
  getSocialShops,
  resolveSocialShops,
  SocialShop,
  SyncRun,
  syncSocialShopInventory,
  syncSocialShopProducts,
} from '#common/contracts/admin/social-shop.ts';
import { api } from '#web/common/browser-api.ts';
import { CheckboxField } from '../ui/fields.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { formatDate } from '../ui/format.ts';
import { AdminTable, PlainHeaders, tableStyles } from '../ui/list-controls.tsx';
import { primaryButton, secondaryButton } from '../ui/styles.ts';
import { awaitAuthorisation } from './authorisation-channel.ts';
import { CategoryMappings, mappingsKey } from './category-mappings.tsx';
import { SyncRunView } from './sync-run.tsx';
import {
  AUTHORISATION_POPUP,
  authUrlFailure,
  connectionText,
  failures,
  isNoShopsAnswer,
  isSyncRunning,
  popupFeatures,
  SHOPS_REFRESH_AFTER_AUTHORISING_MS,
  selectableShopId,
} from './tiktok-shop-rules.ts';

const paths = {
  authUrl: '/api/tiktok-shop/auth-url' as (typeof getSocialShopAuthUrl)['path'],
  shops: '/api/tiktok-shop/shops' as (typeof getSocialShops)['path'],
  resolve: '/api/tiktok-shop/resolve-shops' as (typeof resolveSocialShops)['path'],
  syncProducts: '/api/tiktok-shop/sync-products' as (typeof syncSocialShopProducts)['path'],
  syncInventory: '/api/tiktok-shop/sync-inventory' as (typeof syncSocialShopInventory)['path'],
  latestSyncs: '/api/tiktok-shop/syncs' as (typeof getSocialShopLatestSyncs)['path'],
};
const shopsKey = ['admin', 'tiktok-shop', 'shops'];
const latestSyncsKey = (shopId: string) => ['admin', 'tiktok-shop', 'syncs', shopId];
type LatestSyncs = { products: SyncRun | null; inventory: SyncRun | null };
/** The selected shop is remembered for this browser tab, so the tab reopens on it with its latest runs. */
const SELECTED_SHOP_KEY = 'stillwater.tiktokShop.selectedShop';

const statusBadges: Record<SocialShop['status'], { label: string; style: string }> = {
  pending: { label: 'Pending', style: 'bg-amber-100 text-amber-900' },
  ready: { label: 'Ready', style: 'bg-sage-100 text-sage-900' },
};

/**
 * TikTok Shop tab (permission uploadProducts; spec 2, 3, 4, 8, 9; issue 14): connect a shop through
 * the channel's authorisation in a 600x700 popup, resolve its shops (pending to ready), choose one,
 * sync products (changed ones, or all) and stock to it with the progress and result of each run,
 * and choose the channel category each of our categories is listed under.
 */
export default function TikTokShopTab() {
  const queryClient = useQueryClient();
  const { flash, show } = useFlashMessage();
  const [remembered, setRemembered] = useState(() => sessionStorage.getItem(SELECTED_SHOP_KEY));
  const [forceAll, setForceAll] = useState(false);
  const [awaitingAuthorisation, setAwaitingAuthorisation] = useState(false);
  const [opening, setOpening] = useState(false);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const shops = useQuery({
    queryKey: shopsKey,
    queryFn: async () => {
      try {
        return await api.call<typeof getSocialShops>({ method: 'GET', path: paths.shops });
      } catch (error) {
        if (isNoShopsAnswer(error)) return { shops: [], sellerCentreUrl: null };
        throw error;
      }
    },
  });
  const shopList = shops.data?.shops ?? [];
  const selected = selectableShopId(shopList, remembered);

  const latest = useQuery({
    queryKey: latestSyncsKey(selected ?? ''),
    queryFn: () =>
      api.call<typeof getSocialShopLatestSyncs>(
        { method: 'GET', path: paths.latestSyncs },
        { query: { shopId: selected ?? '' } },
      ),
    enabled: selected !== null,
  });

  // The popup hands the authorisation's result back here (authorisation-channel.ts).
  useEffect(() => {
    if (!awaitingAuthorisation) return;
    return awaitAuthorisation((result) => {
      setAwaitingAuthorisation(false);
      show(result.kind, result.text);
      if (result.kind !== 'success') return;
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
      refreshTimer.current = setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: shopsKey }),
        SHOPS_REFRESH_AFTER_AUTHORISING_MS,
      );
    });
  }, [awaitingAuthorisation, show, queryClient]);
  useEffect(() => () => void (refreshTimer.current && clearTimeout(refreshTimer.current)), []);

  const connect = async () => {
    // Opened within the click, before the call: a window opened once the call has answered may be blocked.
    const popup = window.open(
      '',
      AUTHORISATION_POPUP.name,
      popupFeatures({
        left: window.screenX,
        top: window.screenY,
        width: window.outerWidth,
        height: window.outerHeight,
      }),
    );
    setOpening(true);
    try {
      const { authUrl } = await api.call<typeof getSocialShopAuthUrl>({ method: 'GET', path: paths.authUrl });
      if (popup) {
        popup.location.href = authUrl;
        setAwaitingAuthorisation(true);
      } else {
        // Popups blocked: the authorisation runs in this tab and comes back to it (spec 2).
        window.location.assign(authUrl);
      }
    } catch (error) {
      popup?.close();
      show('error', authUrlFailure(error));
    } finally {
      setOpening(false);
    }
  };

  const resolve = useMutation({
    mutationFn: () => api.call<typeof resolveSocialShops>({ method: 'POST', path: paths.resolve }, { body: {} }),
    onSuccess: (answer) => {
      queryClient.setQueryData(shopsKey, (before: { sellerCentreUrl: string | null } | undefined) => ({
        shops: answer.shops,
        sellerCentreUrl: before?.sellerCentreUrl ?? null,
      }));
      show('success', answer.resolved === 1 ? '1 shop resolved' : `${answer.resolved} shops resolved`);
    },
    onError: () => show('error', failures.resolveShops),
  });

  const showRun = useCallback(
    (run: SyncRun) =>
      queryClient.setQueryData<LatestSyncs>(latestSyncsKey(run.shopId), (current) => ({
        products: current?.products ?? null,
        inventory: current?.inventory ?? null,
        [run.kind]: run,
      })),
    [queryClient],
  );
  // A finished product sync may have stored the channel's category recommendations; a run that
  // failed as a whole gets the spec's failure message (its reason shows with the run).
  const onRunFinished = useCallback(
    (run: SyncRun) => {
      showRun(run);
      if (run.status === 'failed') show('error', run.kind === 'products' ? failures.products : failures.inventory);
      if (run.kind === 'products') void queryClient.invalidateQueries({ queryKey: mappingsKey(run.shopId) });
    },
    [queryClient, showRun, show],
  );
  // The sync calls wait a little for their run, so the answer may be the finished run.
  const onRunStarted = (run: SyncRun) => (isSyncRunning(run) ? showRun(run) : onRunFinished(run));
  const syncProducts = useMutation({
    mutationFn: (input: { shopId: string; forceAll: boolean }) =>
      api.call<typeof syncSocialShopProducts>({ method: 'POST', path: paths.syncProducts }, { body: input }),
    onSuccess: onRunStarted,
    onError: () => show('error', failures.products),
  });
  const syncInventory = useMutation({
    mutationFn: (shopId: string) =>
      api.call<typeof syncSocialShopInventory>({ method: 'POST', path: paths.syncInventory }, { body: { shopId } }),
    onSuccess: onRunStarted,
    onError: () => show('error', failures.inventory),
  });
  const startSync = (kind: SyncRun['kind']) => {
    if (!selected) return show('error', failures.noShopSelected);
    if (kind === 'products') syncProducts.mutate({ shopId: selected, forceAll });
    else syncInventory.mutate(selected);
  };
  const select = (shopId: string) => {
    sessionStorage.setItem(SELECTED_SHOP_KEY, shopId);
    setRemembered(shopId);
  };

  const shopsStatus = shops.isLoading
    ? 'Loading shops…'
    : shops.error
      ? failures.loadShops
      : shopList.length === 0
        ? 'No shops yet: connect a TikTok Shop first.'
        : null;
  const runs = latest.data;

  return (
    <section aria-labelledby="tiktok-shop-heading">
      <h2 id="tiktok-shop-heading" className="font-serif text-2xl text-sage-900">
        TikTok Shop
      </h2>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>

      <section aria-labelledby="tiktok-connection-heading" className="rounded-xl border border-sage-100 bg-white p-4">
        <h3 id="tiktok-connection-heading" className="font-serif text-xl text-sage-900">
          Connection
        </h3>
        {shops.isSuccess ? <p className="mt-1 text-sm text-stone-700">{connectionText(shopList)}</p> : null}
        <div className="mt-3 flex flex-wrap gap-3">
          <button type="button" className={primaryButton} onClick={() => void connect()} disabled={opening}>
            {opening ? 'Opening…' : 'Connect'}
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => resolve.mutate()}
            disabled={resolve.isPending}
          >
            {resolve.isPending ? 'Resolving…' : 'Resolve Shops'}
          </button>
        </div>
        {shops.data?.sellerCentreUrl ? (
          <p className="mt-3 text-sm text-stone-700">
            This is the sandbox TikTok Shop (no TikTok Shop app is configured).{' '}
            <a className="text-sage-800 underline" href={shops.data.sellerCentreUrl} target="_blank" rel="noopener">
              Open its seller centre
            </a>{' '}
            to place test orders of the listed products.
          </p>
        ) : null}
        {awaitingAuthorisation ? (
          <p className="mt-2 text-sm text-stone-700">
            Finish the authorisation in the TikTok Shop window; this page shows the result.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="tiktok-shops-heading" className="mt-8">
        <h3 id="tiktok-shops-heading" className="font-serif text-xl text-sage-900">
          Shops
        </h3>
        <p className="mt-1 text-sm text-stone-700">
          Choose the shop to sync; a pending shop is ready after Resolve Shops.
        </p>
        <fieldset className="mt-3">
          <legend className="sr-only">Shop to sync</legend>
          <AdminTable
            caption="Connected TikTok shops"
            columns={7}
            status={shopsStatus}
            headers={
              <PlainHeaders
                names={['Select', 'Shop', 'Shop ID', 'Region', 'Status', 'Shops discovered', 'Connected']}
              />
            }
          >
            {shopList.map((shop) => {
              const badge = statusBadges[shop.status];
              return (
                <tr key={shop.shopId} className={shop.shopId === selected ? 'bg-sage-50' : undefined}>
                  <td className={tableStyles.cell}>
                    {shop.status === 'ready' ? (
                      <label className="inline-flex items-center">
                        <input
                          type="radio"
                          name="tiktok-shop-selection"
                          value={shop.shopId}
                          checked={shop.shopId === selected}
                          onChange={() => select(shop.shopId)}
                          className="h-4 w-4 accent-sage-700"
                        />
                        <span className="sr-only">Select {shop.shopName}</span>
                      </label>
                    ) : (
                      <span className="text-xs text-stone-600">Resolve first</span>
                    )}
                  </td>
                  <td className={`${tableStyles.cell} font-medium text-stone-900`}>{shop.shopName}</td>
                  <td className={`${tableStyles.cell} font-mono`}>{shop.shopId}</td>
                  <td className={tableStyles.cell}>{shop.region}</td>
                  <td className={tableStyles.cell}>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${badge.style}`}>{badge.label}</span>
                  </td>
                  <td className={tableStyles.cell}>{shop.shopsDiscovered}</td>
                  <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDate(shop.createdAt)}</td>
                </tr>
              );
            })}
          </AdminTable>
        </fieldset>
      </section>

      <section aria-labelledby="tiktok-sync-heading" className="mt-8">
        <h3 id="tiktok-sync-heading" className="font-serif text-xl text-sage-900">
          Sync
        </h3>
        <p className="mt-1 text-sm text-stone-700">
          {selected
            ? `To ${shopList.find((shop) => shop.shopId === selected)?.shopName ?? selected}.`
            : 'No shop selected.'}
        </p>
        <div className="mt-3 flex flex-wrap items-center gap-4">
          <CheckboxField
            label="Force all products"
            checked={forceAll}
            onChange={setForceAll}
            hint="Sync every product, not only those changed since the last sync."
          />
          <button
            type="button"
            className={primaryButton}
            onClick={() => startSync('products')}
            disabled={syncProducts.isPending}
          >
            {syncProducts.isPending ? 'Starting…' : 'Sync Products'}
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => startSync('inventory')}
            disabled={syncInventory.isPending}
          >
            {syncInventory.isPending ? 'Starting…' : 'Sync Inventory'}
          </button>
        </div>
        {selected && runs?.products ? (
          <SyncRunView key={runs.products.syncId} run={runs.products} onFinished={onRunFinished} />
        ) : null}
        {selected && runs?.inventory ? (
          <SyncRunView key={runs.inventory.syncId} run={runs.inventory} onFinished={onRunFinished} />
        ) : null}
      </section>

      {selected ? <CategoryMappings key={selected} shopId={selected} show={show} /> : null}
    </section>
  );
}
