import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import type { SessionUser } from '#common/contracts/accounts.ts';
import { type AdminTab, adminTabs, deniedMessages, tabAccess, visibleTabs } from '#common/permissions.ts';
import { LiveIndicator } from './live/live-indicator.tsx';
import { type LiveMessage, useLiveEvents } from './live/use-live-events.ts';
import { createAdminQueryClient } from './query-client.ts';
import { SOCIAL_SHOP_RETURN_PARAMS, socialShopReturnMessage } from './social-shop-return.ts';
import { tabLabels, tabModules } from './tabs.ts';
import { handBackAuthorisation } from './tiktok-shop/authorisation-channel.ts';
import { FlashMessage, useFlashMessage } from './ui/flash-message.tsx';

// One lazy component per built tab, made once: a tab's code loads when it is first opened.
const lazyTabs = Object.fromEntries(Object.entries(tabModules).map(([tab, load]) => [tab, lazy(load)])) as Partial<
  Record<AdminTab, ReturnType<typeof lazy>>
>;

const subscribeNothing = () => () => {};
/** False while the server renders and during hydration, true afterwards: the tabs are client-rendered. */
function useHydrated() {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}

const isTab = (value: string | null): value is AdminTab => adminTabs.includes(value as AdminTab);

/**
 * The back office: the tabs this admin may open (the permission table of common/permissions.ts),
 * the current one kept in the address (/admin?tab=users). Opening a tab loads its data afresh.
 */
export function AdminApp({ user }: { user: SessionUser }) {
  const [queryClient] = useState(createAdminQueryClient);
  const [params, setParams] = useSearchParams();
  const hydrated = useHydrated();
  const { flash, show } = useFlashMessage();

  const tabs = useMemo(() => visibleTabs(user).filter((tab) => tabModules[tab]), [user]);
  const wanted = params.get('tab');
  const denied = isTab(wanted) && tabModules[wanted] && !tabs.includes(wanted) ? wanted : null;
  const current: AdminTab = isTab(wanted) && tabs.includes(wanted) ? wanted : 'dashboard';

  // The social shop's authorisation comes back here with its result in the query (spec 2).
  useEffect(() => {
    const message = socialShopReturnMessage(params);
    if (!message) return;
    show(message.kind, message.text);
    // In the authorisation popup: the tab that opened it shows the result, and the popup closes.
    handBackAuthorisation(params);
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const name of SOCIAL_SHOP_RETURN_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [params, setParams, show]);

  const openTab = (index: number) => {
    const tab = tabs[index];
    if (!tab) return;
    setParams({ tab }, { preventScrollReset: true });
    // Spec 2: switching tabs reloads that tab's data.
    void queryClient.invalidateQueries({ queryKey: ['admin'] });
  };

  return (
    <QueryClientProvider client={queryClient}>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="font-serif text-4xl text-sage-900">Admin Dashboard</h1>
            <p className="mt-1 text-stone-600">
              Signed in as {user.username} ({user.role === 'owner' ? 'owner' : 'admin'})
            </p>
          </div>
          {hydrated ? <LiveUpdates /> : null}
        </div>
        <div className="mt-4">
          <FlashMessage flash={flash} />
        </div>
        {denied ? (
          <section className="mt-6 rounded-xl bg-red-50 p-6" aria-labelledby="access-denied">
            <h2 id="access-denied" className="font-serif text-2xl text-red-900">
              Access Denied
            </h2>
            <p className="mt-2 text-red-900">{deniedMessages[tabAccess[denied]]}</p>
          </section>
        ) : (
          <TabGroup selectedIndex={Math.max(0, tabs.indexOf(current))} onChange={openTab} className="mt-6">
            <TabList aria-label="Back office" className="flex flex-wrap gap-1 border-sage-200 border-b">
              {tabs.map((tab) => (
                <Tab
                  key={tab}
                  className="-mb-px rounded-t-lg border border-transparent px-4 py-2 text-sm font-medium text-stone-700 hover:text-sage-900 data-selected:border-sage-200 data-selected:border-b-white data-selected:bg-white data-selected:text-sage-900 data-focus:outline-2 data-focus:outline-sage-600"
                >
                  {tabLabels[tab]}
                </Tab>
              ))}
            </TabList>
            <TabPanels className="pt-6">
              {tabs.map((tab) => {
                const TabContent = lazyTabs[tab];
                return (
                  <TabPanel key={tab} className="focus:outline-none">
                    {hydrated && TabContent ? (
                      <Suspense fallback={<Loading />}>
                        <TabContent user={user} />
                      </Suspense>
                    ) : (
                      <Loading />
                    )}
                  </TabPanel>
                );
              })}
            </TabPanels>
          </TabGroup>
        )}
      </div>
    </QueryClientProvider>
  );
}

/**
 * The live connection (spec 7): its indicator, and each event refreshes what shows its collection
 * (the lists keyed ['admin', collection]) and the dashboard; after a gap too long to replay,
 * everything is loaded again.
 */
function LiveUpdates() {
  const queryClient = useQueryClient();
  const live = useLiveEvents({
    onEvent: (message: LiveMessage) => {
      void queryClient.invalidateQueries({ queryKey: ['admin', message.data.collection] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] });
    },
    onReload: () => void queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
  return <LiveIndicator status={live.status} error={live.error} onReconnect={live.reconnect} />;
}

function Loading() {
  return (
    <p role="status" className="text-sm text-stone-600">
      Loading…
    </p>
  );
}
