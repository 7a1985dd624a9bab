import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { CloseIcon } from '#web/common/icons.tsx';

/**
 * The back office's modal: an accessible dialog (focus kept inside, Escape and the backdrop
 * close it, focus returns to the opener), from Headless UI.
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
  const width = { md: 'max-w-lg', lg: 'max-w-3xl', xl: 'max-w-5xl' }[size];
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-stone-900/40" />
      {/* Centred by its margins, not by the flex alignment: a panel taller than the window then
          starts at the top and scrolls, instead of losing its top above the window. */}
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4">
        <DialogPanel className={`w-full ${width} rounded-2xl bg-white shadow-xl sm:my-auto`}>
          <div className="flex items-center justify-between gap-4 border-sage-100 border-b px-6 py-4">
            <DialogTitle className="font-serif text-2xl text-sage-900">{title}</DialogTitle>
            <button
              type="button"
              onClick={onClose}
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
        </DialogPanel>
      </div>
    </Dialog>
  );
}
