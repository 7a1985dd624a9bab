import { describe, expect, test } from 'vitest';
import { joinPages, listHref, nearBottom, nextPageOf, nextSort, readListPage } from './list-state.ts';

type Row = { id: string; name: string };
const row = (id: string, name = id): Row => ({ id, name });

describe('readListPage', () => {
  test('reads the list under its key with the pagination', () => {
    const body = { users: [row('a')], pagination: { page: 1, pages: 3, total: 21 } };
    expect(readListPage<Row>(body, 'users')).toEqual({
      items: [row('a')],
      pagination: { page: 1, pages: 3, total: 21 },
    });
  });

  test('accepts a bare array, as one page with nothing after it', () => {
    const page = readListPage<Row>([row('a'), row('b')], 'users');
    expect(page).toEqual({ items: [row('a'), row('b')], pagination: null });
    expect(page && nextPageOf(page)).toBeUndefined();
  });

  test('an unexpected shape is null (the caller logs it and empties the list)', () => {
    for (const body of [null, 'users', 42, {}, { users: 'a' }, { orders: [] }]) {
      expect(readListPage(body, 'users')).toBeNull();
    }
  });

  test('a malformed pagination is ignored: the page is shown, nothing more is asked for', () => {
    const page = readListPage<Row>({ users: [row('a')], pagination: { page: '1' } }, 'users');
    expect(page).toEqual({ items: [row('a')], pagination: null });
  });
});

describe('nextPageOf', () => {
  test('the following page until the last', () => {
    expect(nextPageOf({ items: [], pagination: { page: 1, pages: 3, total: 25 } })).toBe(2);
    expect(nextPageOf({ items: [], pagination: { page: 3, pages: 3, total: 25 } })).toBeUndefined();
    expect(nextPageOf({ items: [], pagination: { page: 1, pages: 0, total: 0 } })).toBeUndefined();
  });
});

describe('joinPages', () => {
  test('appends pages in order and skips rows already shown (a row that moved between pages)', () => {
    const pages = [
      { items: [row('a'), row('b')], pagination: null },
      { items: [row('b', 'moved'), row('c')], pagination: null },
    ];
    expect(joinPages(pages, (r) => r.id)).toEqual([row('a'), row('b'), row('c')]);
  });
});

describe('nextSort', () => {
  test('the same column flips; a new column starts asc', () => {
    expect(nextSort({ sortBy: 'email', sortOrder: 'asc' }, 'email')).toEqual({ sortBy: 'email', sortOrder: 'desc' });
    expect(nextSort({ sortBy: 'email', sortOrder: 'desc' }, 'email')).toEqual({ sortBy: 'email', sortOrder: 'asc' });
    expect(nextSort({ sortBy: 'email', sortOrder: 'desc' }, 'username')).toEqual({
      sortBy: 'username',
      sortOrder: 'asc',
    });
  });

  test('a list whose new columns start desc (the newsletter)', () => {
    expect(nextSort({ sortBy: 'email', sortOrder: 'asc' }, 'createdAt', 'desc')).toEqual({
      sortBy: 'createdAt',
      sortOrder: 'desc',
    });
  });
});

describe('nearBottom', () => {
  test('within 100 px of the bottom, not before', () => {
    expect(nearBottom({ scrollY: 900, innerHeight: 1000, scrollHeight: 2000 }, 100)).toBe(true);
    expect(nearBottom({ scrollY: 899, innerHeight: 1000, scrollHeight: 2000 }, 100)).toBe(false);
    expect(nearBottom({ scrollY: 0, innerHeight: 1000, scrollHeight: 800 }, 100)).toBe(true);
  });
});

describe('listHref', () => {
  test('carries the filters and sort, encoded, leaving empty ones out', () => {
    expect(
      listHref('/api/admin/orders/export', {
        format: 'csv',
        search: 'Ada & co',
        statusFilter: '',
        ratingFilter: undefined,
        sortBy: 'total',
        sortOrder: 'asc',
      }),
    ).toBe('/api/admin/orders/export?format=csv&search=Ada+%26+co&sortBy=total&sortOrder=asc');
    expect(listHref('/api/admin/newsletter/export', { search: '' })).toBe('/api/admin/newsletter/export');
  });
});
