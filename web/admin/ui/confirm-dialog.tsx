import { useCallback, useRef, useState } from 'react';
import { Modal } from './modal.tsx';
import { dangerButton, secondaryButton } from './styles.ts';

type Question = { title: string; message: string; confirmLabel: string };

/**
 * The confirm step of the back office (spec 5: delete product, send a password reset, remove admin
 * privileges): `confirm(...)` opens the dialog and resolves true or false; render `dialog` once.
 */
export function useConfirm() {
  const [question, setQuestion] = useState<Question | null>(null);
  const resolveRef = useRef<((answer: boolean) => void) | null>(null);

  const confirm = useCallback((next: Question) => {
    // A new question cancels one still open.
    resolveRef.current?.(false);
    setQuestion(next);
    return new Promise<boolean>((resolve) => {
      resolveRef.current = resolve;
    });
  }, []);

  const answer = (value: boolean) => {
    resolveRef.current?.(value);
    resolveRef.current = null;
    setQuestion(null);
  };

  const dialog = (
    <Modal
      open={question !== null}
      onClose={() => answer(false)}
      title={question?.title ?? ''}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={() => answer(false)}>
            Cancel
          </button>
          <button type="button" className={dangerButton} onClick={() => answer(true)}>
            {question?.confirmLabel ?? 'Confirm'}
          </button>
        </>
      }
    >
      <p className="text-stone-700">{question?.message}</p>
    </Modal>
  );
  return { confirm, dialog };
}
