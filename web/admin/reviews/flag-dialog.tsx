import { useState } from 'react';
import type { AdminReview } from '#common/contracts/admin/reviews.ts';
import { DENIAL_REASON_MAX } from '#common/review-rules.ts';
import { InputField } from '../ui/fields.tsx';
import { Modal } from '../ui/modal.tsx';
import { dangerButton, secondaryButton } from '../ui/styles.ts';

/** Flag with a reason (spec 5: the prompt requires a non-empty reason). Keyed by the review, so each starts empty. */
export function FlagDialog({
  review,
  busy,
  onFlag,
  onClose,
}: {
  review: AdminReview | null;
  busy: boolean;
  onFlag: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = () => {
    if (reason.trim() === '') {
      setError('Please give a reason for flagging this review');
      return;
    }
    onFlag(reason.trim());
  };
  return (
    <Modal
      open={review !== null}
      onClose={onClose}
      title="Flag review"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={dangerButton} disabled={busy} onClick={submit}>
            {busy ? 'Flagging…' : 'Flag review'}
          </button>
        </>
      }
    >
      <p className="mb-4 text-sm text-stone-700">
        “{review?.title}” by {review?.customerName} will be hidden from the shop.
      </p>
      <InputField
        label="Reason"
        value={reason}
        onChange={setReason}
        error={error}
        multiline
        hint={`Shown to the review's author. At most ${DENIAL_REASON_MAX} characters.`}
      />
    </Modal>
  );
}
