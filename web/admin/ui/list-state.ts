/**
 * The rules every admin list shares (back-office spec 4 and 7): how a page of the API is read, how
 * pages join, and how the sort flips. Pure, so the list hook stays thin and the rules are tested.
 */

export type SortOrder = 'asc' | 'desc';
export type Sort<Field extends string> = { sortBy: Field; sortOrder: SortOrder };
export type ListPagination = { page: number; pages: number; total: number; capped?: boolean };

/** One page as the list understands it; `pagination` is null when the API answered a bare array. */
export type ListPage<Item> = { items: Item[]; pagination: ListPagination | null };

/**
 * Reads a list answer: `{[key]: items, pagination}` or a bare array (spec 7). Anything else is an
 * unexpected shape, which the caller logs and shows as an empty list (spec 8).
 */
export function readListPage<Item>(body: unknown, key: string): ListPage<Item> | null {
  if (Array.isArray(body)) return { items: body as Item[], pagination: null };
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const items = record[key];
  if (!Array.isArray(items)) return null;
  const pagination = record.pagination;
  return { items: items as Item[], pagination: isPagination(pagination) ? pagination : null };
}

function isPagination(value: unknown): value is ListPagination {
  if (typeof value !== 'object' || value === null) return false;
  const { page, pages, total } = value as Record<string, unknown>;
  return typeof page === 'number' && typeof pages === 'number' && typeof total === 'number';
}

/** The page after the last one loaded, or undefined when it was the last (or the list is a bare array). */
export function nextPageOf(last: ListPage<unknown>): number | undefined {
  if (!last.pagination) return undefined;
  return last.pagination.page < last.pagination.pages ? last.pagination.page + 1 : undefined;
}

/** Load More appends the next page and skips rows already shown (spec 4: duplicates by id). */
export function joinPages<Item>(pages: ListPage<Item>[], idOf: (item: Item) => string): Item[] {
  const seen = new Set<string>();
  const rows: Item[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(item);
    }
  }
  return rows;
}

/**
 * Clicking a column header (spec 4): the same column flips asc/desc; a new column starts asc, or
 * `firstOrder` where a list says otherwise (the newsletter's starts desc).
 */
export function nextSort<Field extends string>(
  current: Sort<Field>,
  column: Field,
  firstOrder: SortOrder = 'asc',
): Sort<Field> {
  if (current.sortBy === column) return { sortBy: column, sortOrder: current.sortOrder === 'asc' ? 'desc' : 'asc' };
  return { sortBy: column, sortOrder: firstOrder };
}

/** Whether the page is scrolled to within `threshold` px of its bottom (spec 9: infinite scroll at 100 px). */
export function nearBottom(
  { scrollY, innerHeight, scrollHeight }: { scrollY: number; innerHeight: number; scrollHeight: number },
  threshold: number,
): boolean {
  return scrollY + innerHeight >= scrollHeight - threshold;
}

/**
 * A list's address with its filters and sort (the export links carry what the list shows); empty
 * filters are left out, as the list's own requests leave them out.
 */
export function listHref(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
