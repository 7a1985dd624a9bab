import { describe, expect, test, vi } from 'vitest';
import { createBatchWriter } from './batch-writer.ts';

describe('createBatchWriter', () => {
  test('writes every maxRows rows at once, and the rest after the interval', async () => {
    vi.useFakeTimers();
    try {
      const batches: number[][] = [];
      const writer = createBatchWriter<number>({
        write: async (rows) => batches.push(rows),
        onError: () => {},
        maxRows: 3,
        intervalMs: 1000,
      });
      for (const n of [1, 2, 3, 4]) writer.add(n);
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([[1, 2, 3]]);
      await vi.advanceTimersByTimeAsync(999);
      expect(batches).toEqual([[1, 2, 3]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1, 2, 3], [4]]);
    } finally {
      vi.useRealTimers();
    }
  });

  test('close writes what waits and refuses later rows', async () => {
    const batches: string[][] = [];
    const writer = createBatchWriter<string>({ write: async (rows) => batches.push(rows), onError: () => {} });
    writer.add('a');
    writer.add('b');
    await writer.close();
    writer.add('c');
    await writer.flush();
    expect(batches).toEqual([['a', 'b']]);
  });

  test('a failed write is reported with its row count, and later batches still go', async () => {
    const errors: number[] = [];
    const written: number[][] = [];
    let fail = true;
    const writer = createBatchWriter<number>({
      write: async (rows) => {
        if (fail) throw new Error('database down');
        written.push(rows);
      },
      onError: (_error, dropped) => errors.push(dropped),
    });
    writer.add(1);
    writer.add(2);
    await writer.flush();
    fail = false;
    writer.add(3);
    await writer.flush();
    expect(errors).toEqual([2]);
    expect(written).toEqual([[3]]);
  });

  test('at most maxWaiting rows wait; beyond that rows are dropped and reported', async () => {
    const errors: number[] = [];
    const writer = createBatchWriter<number>({
      write: async () => {},
      onError: (_error, dropped) => errors.push(dropped),
      maxRows: 100,
      maxWaiting: 2,
    });
    for (const n of [1, 2, 3]) writer.add(n);
    expect(writer.waiting).toBe(2);
    expect(errors).toEqual([1]);
    await writer.close();
  });
});
