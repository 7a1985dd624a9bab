import { useQuery } from '@tanstack/react-query';
import type { listNewsletterSends, NewsletterSend } from '#common/contracts/admin/newsletter.ts';
import { api } from '#web/common/browser-api.ts';
import { formatDateTime } from '../ui/format.ts';

const sendsPath: (typeof listNewsletterSends)['path'] = '/api/admin/newsletter/sends';
/** How often a running send's progress is read again. */
const PROGRESS_POLL_MS = 2000;
const running = (send: NewsletterSend) => send.status === 'queued' || send.status === 'sending';

/** The latest send's progress (sent of total, failures), read every 2 s while one is running. */
export function SendProgress() {
  const sends = useQuery({
    queryKey: ['admin', 'newsletter-sends'],
    queryFn: () => api.call<typeof listNewsletterSends>({ method: 'GET', path: sendsPath }),
    refetchInterval: (query) => (query.state.data?.sends.some(running) ? PROGRESS_POLL_MS : false),
  });
  const latest = sends.data?.sends[0];
  if (!latest) return null;
  const done = latest.sent + latest.failed;
  const what = running(latest)
    ? `Sending “${latest.subject}”`
    : latest.status === 'cancelled'
      ? `“${latest.subject}” was cancelled`
      : `“${latest.subject}” was sent ${formatDateTime(latest.finishedAt)}`;
  return (
    <section
      aria-labelledby="newsletter-progress-heading"
      className="mt-4 rounded-xl border border-sage-100 bg-white p-4"
    >
      <h3 id="newsletter-progress-heading" className="font-medium text-stone-900">
        Latest newsletter
      </h3>
      <p className="mt-1 text-sm text-stone-700">{what}</p>
      <progress
        className="mt-2 h-2 w-full accent-sage-700"
        aria-label="Newsletter sending progress"
        max={Math.max(1, latest.total)}
        value={done}
      />
      {/* Read on demand; only the send's state changes are announced (below), not every count. */}
      <p className="mt-1 text-sm text-stone-700">
        {latest.sent.toLocaleString('en-US')} / {latest.total.toLocaleString('en-US')} sent
        {latest.failed > 0 ? `, ${latest.failed.toLocaleString('en-US')} failed` : ''}
      </p>
      <p role="status" className="sr-only">
        {what}
      </p>
    </section>
  );
}
