import { liveIndicatorTexts } from '#common/live-events.ts';
import type { LiveStatus } from './use-live-events.ts';

const dots: Record<LiveStatus, string> = {
  connected: 'bg-green-600',
  connecting: 'bg-amber-500 motion-safe:animate-pulse',
  error: 'bg-red-600',
};

/**
 * The live connection indicator (spec 2): 'Live updates active', 'Connection error' with a
 * Reconnect button, or 'Connecting....'. The text is a status region, so a screen reader hears
 * the connection change; the button stays outside it.
 */
export function LiveIndicator({
  status,
  error = null,
  onReconnect,
}: {
  status: LiveStatus;
  /** Why the connection failed ('Failed to connect', 'Connection error occurred'), shown as a hint. */
  error?: string | null;
  onReconnect: () => void;
}) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <span role="status" className="inline-flex items-center gap-2 text-stone-700" title={error ?? undefined}>
        <span aria-hidden="true" className={`h-2.5 w-2.5 shrink-0 rounded-full ${dots[status]}`} />
        {liveIndicatorTexts[status]}
      </span>
      {status === 'error' ? (
        <button
          type="button"
          onClick={onReconnect}
          className="rounded-full border border-sage-300 px-3 py-1 text-xs font-medium text-sage-800 hover:bg-sage-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sage-600"
        >
          {liveIndicatorTexts.reconnect}
        </button>
      ) : null}
    </div>
  );
}
