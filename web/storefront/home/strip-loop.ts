/**
 * The home page's endless review strip, as arithmetic: the strip is a row of cards that moves
 * left; a card that has gone out on the left is moved to the end of the row (and the row's
 * offset shortened by its width), so the row never runs out and no second copy of it is drawn.
 */

/** Which way the row turns for an offset: 1 sends the first card to the end, -1 brings the last one to the front. */
export function rotationFor(offset: number, cardStep: number): -1 | 0 | 1 {
  if (cardStep <= 0) return 0;
  if (offset >= cardStep) return 1;
  if (offset < 0) return -1;
  return 0;
}

/**
 * How many copies of the reviews fill the strip: the row must stay wider than the strip by one
 * card, or a gap would show at its right end while the first card moves out.
 */
export function copiesToFill(rowWidth: number, stripWidth: number, cardStep: number): number {
  if (rowWidth <= 0) return 1;
  return Math.max(1, Math.ceil((stripWidth + cardStep) / rowWidth));
}

/** The row's slots in the order shown when slot `first` is at its left edge. */
export function slotOrder(first: number, slots: number): number[] {
  return Array.from({ length: slots }, (_, index) => (first + index) % slots);
}
