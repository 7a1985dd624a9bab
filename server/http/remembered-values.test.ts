import { describe, expect, test, vi } from 'vitest';
import { createRememberedValues } from './remembered-values.ts';

describe('remembered values', () => {
  test('computed once per key, concurrent callers included, until invalidate()', async () => {
    const cache = createRememberedValues({ ttlMs: 60_000, maxValues: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([1, 2, 3].map(() => cache.remember('ranking', load)))).toEqual([1, 1, 1]);
    expect(await cache.remember('ranking', load)).toBe(1);
    expect(await cache.remember('other', load)).toBe(2);
    cache.invalidate();
    expect(await cache.remember('ranking', load)).toBe(3);
  });

  test('kept for the time to live only', async () => {
    const cache = createRememberedValues({ ttlMs: 0, maxValues: 10 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.remember('ranking', load);
    expect(await cache.remember('ranking', load)).toBe(2);
  });

  test('a write during the load: its callers get the value, the next caller computes anew', async () => {
    const cache = createRememberedValues({ ttlMs: 60_000, maxValues: 10 });
    let loads = 0;
    let release = () => {};
    const early = cache.remember('ranking', async () => {
      loads++;
      await new Promise<void>((resolve) => (release = resolve));
      return 'before';
    });
    await vi.waitFor(() => expect(loads).toBe(1));
    cache.invalidate();
    const late = cache.remember('ranking', async () => 'after');
    release();
    expect(await early).toBe('before');
    expect(await late).toBe('after');
    expect(await cache.remember('ranking', async () => 'again')).toBe('after');
  });

  test('a failed load is not kept', async () => {
    const cache = createRememberedValues({ ttlMs: 60_000, maxValues: 10 });
    await expect(
      cache.remember('ranking', async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
    expect(await cache.remember('ranking', async () => 'back')).toBe('back');
  });

  test('at most maxValues are kept, the oldest dropped first', async () => {
    const cache = createRememberedValues({ ttlMs: 60_000, maxValues: 2 });
    let loads = 0;
    const load = async () => ++loads;
    for (const key of ['a', 'b', 'c']) await cache.remember(key, load);
    expect(await cache.remember('c', load)).toBe(3);
    expect(await cache.remember('b', load)).toBe(2);
    expect(await cache.remember('a', load)).toBe(4);
  });
});
