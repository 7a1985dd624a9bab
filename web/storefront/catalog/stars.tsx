import { starsFor } from '#common/catalog-rules.ts';

// One star, in relative moves only, so it can be repeated at any x.
const STAR = 'l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z';
const SPRITE_ID = 'sw-five-stars';

/** The five-star shape, once per page (in the layout); every rating draws it by reference. */
export function StarsSprite() {
  return (
    <svg width="0" height="0" className="absolute" aria-hidden="true">
      <symbol id={SPRITE_ID} viewBox="0 0 100 20">
        <path d={[0, 20, 40, 60, 80].map((x) => `M${x + 10} 1.5${STAR}`).join('')} fill="currentColor" />
      </symbol>
    </svg>
  );
}

/** Five stars filled to the rating rounded to the nearest half: a grey row with a gold row clipped over it. */
export function Stars({ rating, size = 'h-4' }: { rating: number; size?: string }) {
  const shown = starsFor(rating);
  const row = (className: string) => (
    <svg viewBox="0 0 100 20" className={`${size} aspect-[5/1] ${className}`} aria-hidden="true">
      <use href={`#${SPRITE_ID}`} width="100" height="20" />
    </svg>
  );
  return (
    <span className="relative inline-flex shrink-0" role="img" aria-label={`${shown} out of 5 stars`}>
      {row('text-stone-300')}
      <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${shown * 20}%` }}>
        {row('max-w-none text-amber-500')}
      </span>
    </span>
  );
}
