import { useCallback, useEffect, useRef, useState } from 'react';
import { ADMIN_MESSAGE_CLEAR_MS } from '#common/constants.ts';

export type Flash = { kind: 'success' | 'error'; text: string };

/** A success or error message that clears itself after 5 s (spec 4); a new one restarts the clock. */
export function useFlashMessage(clearAfterMs = ADMIN_MESSAGE_CLEAR_MS) {
  const [flash, setFlash] = useState<Flash | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = useCallback(
    (kind: Flash['kind'], text: string) => {
      if (timer.current) clearTimeout(timer.current);
      setFlash({ kind, text });
      timer.current = setTimeout(() => setFlash(null), clearAfterMs);
    },
    [clearAfterMs],
  );
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return { flash, show };
}

/** Where a tab's flash message shows: announced politely, errors assertively. */
export function FlashMessage({ flash }: { flash: Flash | null }) {
  return (
    <div aria-live="polite" className="min-h-0">
      {flash ? (
        <p
          role={flash.kind === 'error' ? 'alert' : 'status'}
          className={`mb-4 rounded-lg px-4 py-3 text-sm ${
            flash.kind === 'error' ? 'bg-red-50 text-red-800' : 'bg-sage-50 text-sage-900'
          }`}
        >
          {flash.text}
        </p>
      ) : null}
    </div>
  );
}
