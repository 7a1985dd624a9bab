import { useEffect, useState } from 'react';
import type { markReviewHelpful } from '#common/contracts/reviews.ts';
import { api } from '#web/common/browser-api.ts';

/**
 * "Helpful (n)": a review can be marked helpful once per view, and the count then comes from the
 * server's answer (spec section 4). A failed vote says nothing and keeps the count. The button
 * stays focusable once used (aria-disabled, not disabled), so a keyboard user's focus is not lost;
 * before hydration it is inert, so a click is never swallowed silently.
 */
export function HelpfulButton({
  reviewId,
  helpful,
  describedBy,
}: {
  reviewId: string;
  helpful: number;
  /** The id of the review's title, read after the button's name. */
  describedBy?: string;
}) {
  const [count, setCount] = useState(helpful);
  const [used, setUsed] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const inert = !ready || used;
  return (
    <button
      type="button"
      aria-disabled={inert ? true : undefined}
      aria-describedby={describedBy}
      onClick={async () => {
        if (inert) return;
        setUsed(true);
        try {
          const answer = await api.call<typeof markReviewHelpful>(
            { method: 'POST', path: '/api/reviews/:id/helpful' },
            { params: { id: reviewId } },
          );
          if (Number.isInteger(answer.helpful)) setCount(answer.helpful);
        } catch {
          // Quiet: the count stays as it was.
        }
      }}
      className="inline-flex items-center gap-1.5 rounded-full border border-sage-200 px-3 py-1 text-xs font-medium text-sage-800 hover:bg-sage-50 aria-disabled:cursor-default aria-disabled:border-stone-200 aria-disabled:text-stone-600 aria-disabled:hover:bg-transparent"
    >
      <svg viewBox="0 0 20 20" className="h-3.5 w-3.5" aria-hidden="true" fill="currentColor">
        <path d="M2 9h3v9H2zM7 18h7.6a2 2 0 0 0 1.95-1.56l1.4-6A2 2 0 0 0 16 8h-4.2l.7-3.4A1.9 1.9 0 0 0 10.6 2L7 8.2z" />
      </svg>
      Helpful ({count})
    </button>
  );
}
