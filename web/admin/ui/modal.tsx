import { type MouseEvent, useId, useLayoutEffect, useRef } from 'react';
import { CloseIcon } from '#web/common/icons.tsx';

/**
 * The back office's modal, on the browser's own modal <dialog>: the page behind is inert and the
 * focus kept inside, Escape and the backdrop close it, and the focus goes back to the opener
 * when it closes. The parent owns `open`; every way of closing asks it through onClose.
 * (Headless UI's Dialog lost its portal when one modal replaced another in the same render under
 * the browser build's renderer, Preact: see docs/decisions.md.)
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  size = 'md',
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: React.ReactNode;
  footer?: React.ReactNode;
  size?: 'md' | 'lg' | 'xl';
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const width = { md: 'max-w-lg', lg: 'max-w-3xl', xl: 'max-w-5xl' }[size];

  // Shown as a modal while open; closing (or the parent no longer rendering it) hands the focus
  // back to what had it before: the dialog element is gone by then, so the browser cannot.
  useLayoutEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.showModal();
    return () => opener?.focus();
  }, [open]);

  // A press that starts and ends around the panel (on the dialog or its centring box) closes it.
  const centringRef = useRef<HTMLDivElement>(null);
  const pressedOutside = useRef(false);
  const onBackdrop = (event: MouseEvent<HTMLDialogElement>) =>
    event.target === event.currentTarget || event.target === centringRef.current;

  if (!open) return null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop's click has its key, Escape (the cancel event).
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: the parent decides (it closes the modal by setting open to false).
        event.preventDefault();
        onCloseRef.current();
      }}
      onMouseDown={(event) => {
        pressedOutside.current = onBackdrop(event);
      }}
      onClick={(event) => {
        if (pressedOutside.current && onBackdrop(event)) onCloseRef.current();
        pressedOutside.current = false;
      }}
      className="m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-transparent p-0 backdrop:bg-stone-900/40"
    >
      {/* Centred by its margins, not by the flex alignment: a panel taller than the window then
          starts at the top and scrolls, instead of losing its top above the window. */}
      <div ref={centringRef} className="flex min-h-full items-start justify-center p-4">
        <div className={`w-full ${width} rounded-2xl bg-white text-ink shadow-xl sm:my-auto`}>
          <div className="flex items-center justify-between gap-4 border-sage-100 border-b px-6 py-4">
            <h2 id={titleId} className="font-serif text-2xl text-sage-900">
              {title}
            </h2>
            <button
              type="button"
              onClick={() => onCloseRef.current()}
              aria-label="Close"
              className="rounded-full p-1 text-stone-600 hover:bg-sage-50 hover:text-stone-900"
            >
              <CloseIcon className="h-5 w-5" />
            </button>
          </div>
          <div className="px-6 py-5">{children}</div>
          {footer ? (
            <div className="flex flex-wrap justify-end gap-3 border-sage-100 border-t px-6 py-4">{footer}</div>
          ) : null}
        </div>
      </div>
    </dialog>
  );
}
