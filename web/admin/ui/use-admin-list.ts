import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ADMIN_PAGE_SIZE, INFINITE_SCROLL_THRESHOLD_PX } from '#common/constants.ts';
import type { ApiRequestError } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { joinPages, type ListPage, nearBottom, nextPageOf, readListPage } from './list-state.ts';

/** A list endpoint, seen from the browser: its path and the parameters it reads (spec 7). */
type ListEndpoint = {
  method: 'GET';
  path: string;
  response: never;
};

export type AdminListOptions<Item> = {
  /**
   * The list's cache key, also the live-event collection that refreshes it (users, orders, …):
   * the admin app invalidates ['admin', collection] when an event of that collection arrives.
   */
  collection: string;
  path: string;
  /** Where the items are in the answer (users, orders, reviews, subscribers, …). */
  itemsKey: string;
  /** Search, filters and sort: a change starts again at page 1 (spec 4). */
  params: Record<string, string | number | undefined>;
  idOf: (item: Item) => string;
  /** Whether scrolling near the bottom loads more (one list per page should; others keep Load More). */
  infiniteScroll?: boolean;
};

/**
 * An admin list (spec 4 and 7): pages of 10 through TanStack Query, joined without duplicates,
 * Load More and infinite scroll within 100 px of the page's bottom, a bare array accepted. A failed
 * load or an unexpected answer is logged and shows an empty list with the error.
 */
export function useAdminList<Item>({
  collection,
  path,
  itemsKey,
  params,
  idOf,
  infiniteScroll = true,
}: AdminListOptions<Item>) {
  const query = useInfiniteQuery({
    queryKey: ['admin', collection, path, params],
    initialPageParam: 1,
    queryFn: async ({ pageParam }): Promise<ListPage<Item>> => {
      const body: unknown = await api.call<ListEndpoint>({ method: 'GET', path }, {
        query: { ...params, page: pageParam, limit: ADMIN_PAGE_SIZE },
      } as never);
      const page = readListPage<Item>(body, itemsKey);
      if (!page) {
        console.error(`Unexpected answer from ${path}`, body);
        return { items: [], pagination: null };
      }
      return page;
    },
    getNextPageParam: (last) => nextPageOf(last),
  });

  const { data, error, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (error) console.error(`Failed to load ${path}`, error);
  }, [error, path]);

  // Infinite scroll: near the bottom, the next page loads as if Load More were pressed.
  useEffect(() => {
    if (!hasNextPage || !infiniteScroll) return;
    const onScroll = () => {
      const { scrollY, innerHeight } = window;
      const { scrollHeight } = document.documentElement;
      if (!isFetchingNextPage && nearBottom({ scrollY, innerHeight, scrollHeight }, INFINITE_SCROLL_THRESHOLD_PX)) {
        void fetchNextPage();
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [hasNextPage, infiniteScroll, isFetchingNextPage, fetchNextPage]);

  const rows = useMemo(() => (error ? [] : joinPages(data?.pages ?? [], idOf)), [data, error, idOf]);
  const last = data?.pages.at(-1);
  return {
    rows,
    total: last?.pagination?.total ?? rows.length,
    /** The total is a count up to a cap, and more match (shown "N+"). */
    capped: last?.pagination?.capped === true,
    isLoading: query.isPending,
    error: error as ApiRequestError | Error | null,
    hasMore: Boolean(hasNextPage),
    isLoadingMore: isFetchingNextPage,
    loadMore: () => void fetchNextPage(),
    refetch: () => void query.refetch(),
  };
}
