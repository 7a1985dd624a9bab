import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { deleteReview, Review } from '#common/contracts/reviews.ts';
import { api } from '#web/common/browser-api.ts';
import { Notice } from '#web/common/form-fields.tsx';
import { Stars } from '#web/storefront/catalog/stars.tsx';
import { ModerationStatus } from './moderation-status.tsx';
import { ReviewEditor } from './review-editor.tsx';
import { ReviewDate, ReviewText, VerifiedBadge } from './review-parts.tsx';

export type OwnReviewData = Review & { productTitle: string };

export const DELETE_CONFIRMATION = 'Are you sure you want to delete this review?';
export const DELETE_FAILED = 'Failed to delete review';

const button = 'rounded-full px-4 py-1.5 text-sm font-medium';

/**
 * One of the signed-in user's reviews in My Reviews: its product (a link to the product page),
 * rating, title, content, date and, when it is not public, its moderation status. It toggles
 * between view and edit; delete asks for confirmation first (spec sections 4 and 8). The texts
 * are rendered as text only.
 */
export function OwnReview({
  review,
  onChanged,
  onDeleted,
}: {
  review: OwnReviewData;
  onChanged: (review: OwnReviewData) => void;
  onDeleted: (id: string) => void;
}) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // After leaving the form, the focus goes back to the Edit button (not lost on the page).
  const [returnFocus, setReturnFocus] = useState(false);
  useEffect(() => {
    if (!editing && returnFocus) {
      editButton.current?.focus();
      setReturnFocus(false);
    }
  }, [editing, returnFocus]);

  const productLink = (
    <Link to={`/product/${encodeURIComponent(review.productId)}`} className="font-medium text-sage-800 hover:underline">
      {review.productTitle}
    </Link>
  );

  if (editing) {
    return (
      <div className="rounded-2xl border border-sage-200 bg-white p-5">
        <p className="mb-4 text-sm text-stone-600">Editing your review of {productLink}</p>
        <ReviewEditor
          review={review}
          label={`Edit your review of ${review.productTitle}`}
          onSaved={(saved, message) => {
            onChanged({ ...saved, productTitle: review.productTitle });
            setNotice(message);
            setEditing(false);
            setReturnFocus(true);
          }}
          onCancel={() => {
            setEditing(false);
            setReturnFocus(true);
          }}
        />
      </div>
    );
  }

  return (
    <article aria-labelledby={titleId} className="rounded-2xl border border-sage-100 bg-white p-5">
      {notice ? (
        <div className="mb-3">
          <Notice kind="success">{notice}</Notice>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        {productLink}
        <ModerationStatus review={review} />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Stars rating={review.rating} />
        <span className="text-sm text-stone-700">{review.rating.toFixed(1)}</span>
        <span className="text-sm text-stone-600">
          · <ReviewDate review={review} />
        </span>
        <VerifiedBadge review={review} />
      </div>
      <ReviewText review={review} titleId={titleId} />
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          ref={editButton}
          type="button"
          aria-describedby={titleId}
          onClick={() => {
            setNotice(null);
            setEditing(true);
          }}
          className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}
        >
          Edit review
        </button>
        <button
          type="button"
          aria-describedby={titleId}
          disabled={deleting}
          onClick={async () => {
            if (!window.confirm(DELETE_CONFIRMATION)) return;
            setDeleting(true);
            try {
              await api.call<typeof deleteReview>(
                { method: 'DELETE', path: '/api/reviews/:id' },
                { params: { id: review.id } },
              );
              onDeleted(review.id);
            } catch {
              window.alert(DELETE_FAILED);
              setDeleting(false);
            }
          }}
          className={`${button} border border-red-200 text-red-800 hover:bg-red-50 disabled:text-stone-600`}
        >
          {deleting ? 'Deleting…' : 'Delete review'}
        </button>
      </div>
    </article>
  );
}
