import type { AdEventProperties } from '#common/contracts/tracking.ts';

/**
 * The order just paid, noted by the checkout for /success, which reports it (the conversion and
 * CompletePayment): the page itself knows only the reference in its address. The server values
 * both from the order it holds; this is what the pixel in the browser is told.
 */
export type PaidOrderNote = { reference: string; totalCents: number; properties: AdEventProperties };

const KEY = 'stillwater.paidOrder';

export function notePaidOrder(note: PaidOrderNote): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(note));
  } catch {
    // Storage refused: /success reports the reference alone.
  }
}

/** The note of this order if the checkout left one (each order's note is read once). */
export function takePaidOrder(reference: string): PaidOrderNote | null {
  try {
    const note = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as PaidOrderNote | null;
    sessionStorage.removeItem(KEY);
    if (note && note.reference === reference && Number.isInteger(note.totalCents)) return note;
  } catch {
    // Unreadable: as if none.
  }
  return null;
}
