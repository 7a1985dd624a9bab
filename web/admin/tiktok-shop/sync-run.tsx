import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { getSocialShopSync, SyncResult, SyncRun } from '#common/contracts/admin/social-shop.ts';
import { api } from '#web/common/browser-api.ts';
import { formatDateTime } from '../ui/format.ts';
import { AdminTable, PlainHeaders, tableStyles } from '../ui/list-controls.tsx';
import { isSyncRunning, SYNC_POLL_MS, syncProgressText, syncStateText } from './tiktok-shop-rules.ts';

const syncPath: (typeof getSocialShopSync)['path'] = '/api/tiktok-shop/syncs/:syncId';
const headings = { products: 'Product sync', inventory: 'Inventory sync' } as const;

/**
 * One sync run: while it is queued or running, read again every second with its progress (done of
 * total); once finished, its result (spec 3: synced, failed, the note, the results and errors per
 * product). `onFinished` runs when a run followed here finishes.
 */
export function SyncRunView({ run: started, onFinished }: { run: SyncRun; onFinished: (run: SyncRun) => void }) {
  const followed = useQuery({
    queryKey: ['admin', 'tiktok-shop', 'sync', started.syncId],
    queryFn: () =>
      api.call<typeof getSocialShopSync>({ method: 'GET', path: syncPath }, { params: { syncId: started.syncId } }),
    initialData: started,
    enabled: isSyncRunning(started),
    refetchInterval: (query) => (query.state.data && isSyncRunning(query.state.data) ? SYNC_POLL_MS : false),
  });
  const run = followed.data;
  const running = isSyncRunning(run);
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) onFinished(run);
    wasRunning.current = running;
  }, [running, run, onFinished]);

  const heading = headings[run.kind];
  const headingId = `tiktok-sync-${run.kind}-heading`;
  return (
    <section aria-labelledby={headingId} className="mt-4 rounded-xl border border-sage-100 bg-white p-4">
      <h4 id={headingId} className="font-medium text-stone-900">
        {heading}
      </h4>
      <p className="mt-1 text-sm text-stone-700">
        Started {formatDateTime(run.startedAt)}
        {run.forceAll ? ', every product' : ''}
        {run.finishedAt ? `; finished ${formatDateTime(run.finishedAt)}` : ''}
      </p>
      {/* Only the run's changes of state are announced, not every count. */}
      <p role="status" className="mt-1 text-sm font-medium text-stone-900">
        {syncStateText(run)}
      </p>
      {running ? (
        <>
          <progress
            className="mt-2 h-2 w-full accent-sage-700"
            aria-label={`${heading} progress`}
            max={Math.max(1, run.total)}
            value={run.done}
          />
          <p className="mt-1 text-sm text-stone-700">{syncProgressText(run)}</p>
        </>
      ) : null}
      {run.result ? <SyncResultView kind={run.kind} result={run.result} /> : null}
      {followed.error && running ? (
        <p className="mt-2 text-sm text-red-800">Could not read the progress; trying again.</p>
      ) : null}
    </section>
  );
}

function SyncResultView({ kind, result }: { kind: SyncRun['kind']; result: SyncResult }) {
  const what = headings[kind].toLowerCase();
  return (
    <div className="mt-3 space-y-3">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt className="text-stone-700">Synced:</dt>
          <dd className="font-medium text-stone-900">{result.synced}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-stone-700">Failed:</dt>
          <dd className={`font-medium ${result.failed > 0 ? 'text-red-800' : 'text-stone-900'}`}>{result.failed}</dd>
        </div>
      </dl>
      {result.note ? <p className="text-sm text-stone-700">{result.note}</p> : null}
      {result.results.length > 0 ? (
        <>
          <h5 className="text-sm font-medium text-stone-900">Synced</h5>
          <AdminTable
            caption={`Products of the ${what}`}
            columns={3}
            status={null}
            headers={<PlainHeaders names={['Title', 'Product ID', 'TikTok product ID']} />}
          >
            {result.results.map((row) => (
              <tr key={`${row.productId}-${row.tiktokProductId}`}>
                <td className={tableStyles.cell}>{row.title}</td>
                <td className={`${tableStyles.cell} font-mono`}>{row.productId}</td>
                <td className={`${tableStyles.cell} font-mono`}>{row.tiktokProductId}</td>
              </tr>
            ))}
          </AdminTable>
        </>
      ) : null}
      {result.errors.length > 0 ? (
        <>
          <h5 className="text-sm font-medium text-red-800">Errors</h5>
          <AdminTable
            caption={`Errors of the ${what}`}
            columns={3}
            status={null}
            headers={<PlainHeaders names={['Title', 'Product ID', 'Error']} />}
          >
            {result.errors.map((row) => (
              <tr key={`${row.productId}-${row.error}`}>
                <td className={tableStyles.cell}>{row.title}</td>
                <td className={`${tableStyles.cell} font-mono`}>{row.productId}</td>
                <td className={`${tableStyles.cell} text-red-800`}>{row.error}</td>
              </tr>
            ))}
          </AdminTable>
        </>
      ) : null}
    </div>
  );
}
