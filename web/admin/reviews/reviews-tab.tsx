import { useCallback, useState } from 'react';
import type {
  AdminReview,
  adminReviewSortFields,
  adminReviewStatusFilters,
  approveReview,
  bulkReviewStatuses,
  deleteReview,
  flagReview,
  listAdminReviews,
  setReviewsStatus,
} from '#common/contracts/admin/reviews.ts';
import { mayApprove, mayFlag, moderationLabel } from '#common/review-rules.ts';
import { api } from '#web/common/browser-api.ts';
import { useConfirm } from '../ui/confirm-dialog.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { formatDate } from '../ui/format.ts';
import {
  AdminTable,
  ListFooter,
  listStatus,
  PlainHeaders,
  SearchField,
  SelectField,
  SortHeader,
  tableStyles,
} from '../ui/list-controls.tsx';
import { nextSort, type Sort } from '../ui/list-state.ts';
import { secondaryButton, smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';
import { useAdminWrite } from '../ui/use-admin-write.ts';
import { FlagDialog } from './flag-dialog.tsx';

type SortField = (typeof adminReviewSortFields)[number];
type StatusFilter = (typeof adminReviewStatusFilters)[number] | '';
type BulkStatus = (typeof bulkReviewStatuses)[number];

const paths = {
  list: '/api/admin/reviews' as (typeof listAdminReviews)['path'],
  approve: '/api/admin/reviews/:id/approve' as (typeof approveReview)['path'],
  flag: '/api/admin/reviews/:id/flag' as (typeof flagReview)['path'],
  status: '/api/admin/reviews/status' as (typeof setReviewsStatus)['path'],
  remove: '/api/admin/reviews/:id' as (typeof deleteReview)['path'],
};
const ratingOptions = [
  { value: '', label: 'All ratings' },
  ...[5, 4, 3, 2, 1].map((stars) => ({ value: String(stars), label: `${stars} stars` })),
];
const statusOptions: { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'flagged', label: 'Flagged' },
];
const bulkOptions: { value: BulkStatus; label: string }[] = [
  { value: 'approved', label: 'Approved' },
  { value: 'flagged', label: 'Flagged' },
  { value: 'pending', label: 'Pending' },
];
const labelStyles = {
  Approved: 'bg-sage-100 text-sage-900',
  Pending: 'bg-amber-100 text-amber-900',
  Flagged: 'bg-red-100 text-red-900',
};
const idOf = (review: AdminReview) => review.id;

/**
 * Reviews tab (every admin; spec 2, 4, 5, 7, 9): filters by rating and status, sort, search;
 * Approve (pending only), Flag with a reason (not when already denied), a bulk status change
 * and delete after a confirm.
 */
export default function ReviewsTab() {
  const [search, setSearch] = useState('');
  const [rating, setRating] = useState('');
  const [status, setStatus] = useState<StatusFilter>('');
  const [sort, setSort] = useState<Sort<SortField>>({ sortBy: 'createdAt', sortOrder: 'desc' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<BulkStatus>('approved');
  const [flagging, setFlagging] = useState<AdminReview | null>(null);
  const list = useAdminList<AdminReview>({
    collection: 'reviews',
    path: paths.list,
    itemsKey: 'reviews',
    params: { search, ratingFilter: rating || undefined, statusFilter: status || undefined, ...sort },
    idOf,
  });
  const { flash, show } = useFlashMessage();
  const { confirm, dialog } = useConfirm();
  const write = { collection: 'reviews', show, failure: 'Failed to update the review' };
  const approve = useAdminWrite({
    ...write,
    call: (review: AdminReview) =>
      api.call<typeof approveReview>({ method: 'PATCH', path: paths.approve }, { params: { id: review.id } }),
  });
  const flag = useAdminWrite({
    ...write,
    call: ({ review, reason }: { review: AdminReview; reason: string }) =>
      api.call<typeof flagReview>(
        { method: 'PATCH', path: paths.flag },
        { params: { id: review.id }, body: { reason } },
      ),
    onDone: () => setFlagging(null),
  });
  const bulk = useAdminWrite({
    ...write,
    call: (reviewIds: string[]) =>
      api.call<typeof setReviewsStatus>(
        { method: 'PATCH', path: paths.status },
        { body: { reviewIds, status: bulkStatus } },
      ),
    onDone: () => setSelected(new Set()),
  });
  const remove = useAdminWrite({
    ...write,
    call: (review: AdminReview) =>
      api.call<typeof deleteReview>({ method: 'DELETE', path: paths.remove }, { params: { id: review.id } }),
    failure: 'Failed to delete the review',
  });

  const askDelete = async (review: AdminReview) => {
    const yes = await confirm({
      title: 'Delete review',
      message: `Delete the review “${review.title}” by ${review.customerName}? This cannot be undone.`,
      confirmLabel: 'Delete review',
    });
    if (yes) remove.mutate(review);
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const onSort = useCallback((field: SortField) => setSort((current) => nextSort(current, field)), []);
  const allShown = list.rows.length > 0 && list.rows.every((review) => selected.has(review.id));

  return (
    <section aria-labelledby="reviews-heading">
      <h2 id="reviews-heading" className="font-serif text-2xl text-sage-900">
        Reviews
      </h2>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SearchField label="Search reviews" value={search} onSearch={setSearch} />
        <SelectField label="Rating" value={rating} options={ratingOptions} onChange={setRating} />
        <SelectField label="Status" value={status} options={statusOptions} onChange={setStatus} />
      </div>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SelectField
          label="Set selected reviews to"
          value={bulkStatus}
          options={bulkOptions}
          onChange={setBulkStatus}
        />
        <button
          type="button"
          className={secondaryButton}
          disabled={selected.size === 0 || bulk.isPending}
          onClick={() => bulk.mutate([...selected])}
        >
          Apply to {selected.size} selected
        </button>
      </div>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>
      <AdminTable
        caption="Reviews"
        columns={8}
        status={listStatus(list, {
          loading: 'Loading reviews…',
          failed: 'Failed to load reviews',
          empty: 'No reviews found.',
        })}
        headers={
          <>
            <th scope="col" className="px-4 py-3 text-left font-medium">
              <input
                type="checkbox"
                aria-label="Select every review shown"
                className="h-4 w-4 accent-sage-700"
                checked={allShown}
                onChange={(event) => setSelected(event.target.checked ? new Set(list.rows.map(idOf)) : new Set())}
              />
            </th>
            <PlainHeaders names={['Review', 'Product']} />
            <SortHeader field="rating" sort={sort} onSort={onSort}>
              Rating
            </SortHeader>
            <PlainHeaders names={['Status']} />
            <SortHeader field="helpfulCount" sort={sort} onSort={onSort}>
              Helpful
            </SortHeader>
            <SortHeader field="createdAt" sort={sort} onSort={onSort}>
              Date
            </SortHeader>
            <PlainHeaders names={['Actions']} />
          </>
        }
      >
        {list.rows.map((review) => {
          const label = moderationLabel(review);
          return (
            <tr key={review.id}>
              <td className={tableStyles.cell}>
                <input
                  type="checkbox"
                  aria-label={`Select the review by ${review.customerName}: ${review.title}`}
                  className="h-4 w-4 accent-sage-700"
                  checked={selected.has(review.id)}
                  onChange={(event) => toggle(review.id, event.target.checked)}
                />
              </td>
              <td className={`${tableStyles.cell} max-w-sm`}>
                <p className="font-medium text-stone-900">{review.title}</p>
                <p className="line-clamp-3 text-stone-700">{review.content}</p>
                <p className="mt-1 text-xs text-stone-600">
                  {review.customerName}
                  {review.user ? ` (${review.user.username})` : ''}
                </p>
                {review.denialReason ? (
                  <p className="mt-1 text-xs text-red-800">Reason: {review.denialReason}</p>
                ) : null}
                {review.aiModerationResult?.flagged ? (
                  <p className="mt-1 text-xs text-red-800">
                    Automatic check: {review.aiModerationResult.reasons.join(', ') || 'flagged'}
                  </p>
                ) : null}
              </td>
              <td className={tableStyles.cell}>{review.productTitle}</td>
              <td className={tableStyles.cell}>{review.rating} / 5</td>
              <td className={tableStyles.cell}>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${labelStyles[label]}`}>{label}</span>
              </td>
              <td className={tableStyles.cell}>{review.helpfulCount}</td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDate(review.createdAt)}</td>
              <td className={tableStyles.cell}>
                <div className="flex flex-wrap gap-2">
                  {mayApprove(review.moderationStatus) ? (
                    <button
                      type="button"
                      className={smallButton}
                      disabled={approve.isPending}
                      onClick={() => approve.mutate(review)}
                      aria-label={`Approve the review by ${review.customerName}: ${review.title}`}
                    >
                      Approve
                    </button>
                  ) : null}
                  {mayFlag(review.moderationStatus) ? (
                    <button
                      type="button"
                      className={smallButton}
                      onClick={() => setFlagging(review)}
                      aria-label={`Flag the review by ${review.customerName}: ${review.title}`}
                    >
                      Flag
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => void askDelete(review)}
                    aria-label={`Delete the review by ${review.customerName}: ${review.title}`}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          );
        })}
      </AdminTable>
      <ListFooter list={list} />
      <FlagDialog
        key={flagging?.id ?? 'none'}
        review={flagging}
        busy={flag.isPending}
        onClose={() => setFlagging(null)}
        onFlag={(reason) => flagging && flag.mutate({ review: flagging, reason })}
      />
      {dialog}
    </section>
  );
}
