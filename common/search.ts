/** The header search rule: a non-empty trimmed term goes to the listing; an empty one is ignored. */
export function searchTarget(term: string): string | null {
  const trimmed = term.trim();
  return trimmed ? `/products?search=${encodeURIComponent(trimmed)}` : null;
}
