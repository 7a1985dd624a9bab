import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '#web/common/api-client.ts';
import type { Flash } from './flash-message.tsx';

/**
 * A tab's write (spec 4 and 8): the answer's message shown for 5 s and the collection's lists
 * read again; a failure shown with the server's message, else `failure`. `onDone` runs first on
 * success (closing a dialog, clearing a selection).
 */
export function useAdminWrite<Input, Answer extends { message: string }>({
  collection,
  call,
  failure,
  show,
  onDone,
}: {
  /** The live-event collection whose lists the write changes (['admin', collection]). */
  collection: string;
  call: (input: Input) => Promise<Answer>;
  failure: string;
  show: (kind: Flash['kind'], text: string) => void;
  onDone?: (answer: Answer, input: Input) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (answer, input) => {
      onDone?.(answer, input);
      show('success', answer.message);
      void queryClient.invalidateQueries({ queryKey: ['admin', collection] });
    },
    onError: (error) => show('error', errorMessage(error, failure)),
  });
}
