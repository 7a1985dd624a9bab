import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { SCROLLER_PX_PER_FRAME, SCROLLER_RESUME_MS, SWIPE_THRESHOLD_PX, TAP_THRESHOLD_PX } from '#common/constants.ts';
import type { Review } from '#common/contracts/reviews.ts';
import { ReviewCard } from '#web/storefront/product/review-card.tsx';
import { copiesToFill, rotationFor, slotOrder } from './strip-loop.ts';

/** The row's gap between cards (its `gap-4`), in px. */
const CARD_GAP_PX = 16;
/** Cards drawn with the page: more than the widest screen shows. */
const CARDS_FIRST = 8;
/** Cards added to the row per task once the page is interactive (a task of a few ms each). */
const CARDS_PER_TASK = 8;

function placeRow(row: HTMLElement | null, offset: number) {
  if (row) row.style.transform = `translateX(${-offset}px)`;
}

/**
 * An endless strip of reviews moving 0.18 px a frame. It pauses on hover or press and resumes
 * 250 ms after release. On touch: a swipe of 40 px moves a card that way; a tap (under 10 px)
 * moves a card toward the tapped side; a mostly vertical move (past 10 px) is left to the page.
 *
 * The loop turns the row (strip-loop.ts): a card gone out on the left moves to the end. Each
 * review is drawn once (a few reviews are repeated until they fill the strip), not twice.
 *
 * The page comes with the first 8 cards, the ones a screen can show; the others are added after
 * it has hydrated, a few per task while the browser is idle. All the kept reviews' markup (52
 * in the demo) was two thirds of the home page's HTML, and laying it out and hydrating it the
 * longest tasks of its load (docs/performance.md).
 */
export function ReviewsScroller({ reviews }: { reviews: Review[] }) {
  const strip = useRef<HTMLDivElement>(null);
  const row = useRef<HTMLDivElement>(null);
  const motion = useRef({
    /** How far the row is moved left, in px from its first card's left edge. */
    offset: 0,
    /** A card's width with its gap (measured in the browser; 0 until laid out). */
    cardStep: 0,
    /** The px the row's offset loses once the turn asked for has been rendered (0: none asked). */
    pendingShift: 0,
    paused: false,
    resume: undefined as ReturnType<typeof setTimeout> | undefined,
  });
  /** The slot at the row's left edge; a slot is one review in one copy. */
  const [first, setFirst] = useState(0);
  /** More than one only when the reviews are narrower than the strip (measured in the browser). */
  const [copies, setCopies] = useState(1);
  /** How many of the reviews are in the row so far. */
  const [drawn, setDrawn] = useState(CARDS_FIRST);
  const shown = reviews.slice(0, drawn);
  const slots = shown.length * copies;

  useEffect(() => {
    if (drawn >= reviews.length) return;
    const more = () => setDrawn((count) => count + CARDS_PER_TASK);
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(more, 50);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(more, { timeout: 1000 });
    return () => cancelIdleCallback(idle);
  }, [drawn, reviews.length]);

  // A turn asked for by the motion is drawn together with the offset that matches it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the row has turned.
  useLayoutEffect(() => {
    const state = motion.current;
    if (state.pendingShift === 0) return;
    state.offset -= state.pendingShift;
    state.pendingShift = 0;
    placeRow(row.current, state.offset);
  }, [first]);

  useEffect(() => {
    const element = strip.current;
    if (!element || reviews.length === 0) return;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const turn = () => {
      const state = motion.current;
      const cards = row.current?.children.length ?? 0;
      if (state.pendingShift !== 0 || cards < 2) return;
      const direction = rotationFor(state.offset, state.cardStep);
      if (direction === 0) return;
      state.pendingShift = direction * state.cardStep;
      setFirst((slot) => (slot + direction + cards) % cards);
    };
    let frame = 0;
    const tick = () => {
      if (!motion.current.paused && !reduced) motion.current.offset += SCROLLER_PX_PER_FRAME;
      turn();
      placeRow(row.current, motion.current.offset);
      frame = requestAnimationFrame(tick);
    };
    // The strip moves only while it is on screen: no work for a strip nobody sees.
    const visibility = new IntersectionObserver(([entry]) => {
      cancelAnimationFrame(frame);
      if (entry?.isIntersecting) frame = requestAnimationFrame(tick);
    });
    visibility.observe(element);
    const size = new ResizeObserver(() => {
      const card = row.current?.firstElementChild as HTMLElement | null;
      const cardStep = card ? card.offsetWidth + CARD_GAP_PX : 0;
      motion.current.cardStep = cardStep;
      setCopies(copiesToFill(reviews.length * cardStep, element.clientWidth, cardStep));
    });
    size.observe(element);
    return () => {
      visibility.disconnect();
      size.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(motion.current.resume);
    };
  }, [reviews.length]);

  const pause = () => {
    clearTimeout(motion.current.resume);
    motion.current.paused = true;
  };
  const resumeSoon = () => {
    clearTimeout(motion.current.resume);
    motion.current.resume = setTimeout(() => {
      motion.current.paused = false;
    }, SCROLLER_RESUME_MS);
  };
  // The next frame turns the row if the card moved past its edge.
  const step = (direction: 1 | -1) => {
    motion.current.offset += direction * motion.current.cardStep;
  };

  const touch = useRef({ x: 0, y: 0, vertical: false });
  if (reviews.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover, press and touch only steer the motion; nothing here is a control.
    <div
      ref={strip}
      className="relative overflow-hidden"
      onMouseEnter={pause}
      onMouseLeave={resumeSoon}
      onPointerDown={pause}
      onPointerUp={resumeSoon}
      onTouchStart={(event) => {
        const point = event.touches[0];
        if (!point) return;
        touch.current = { x: point.clientX, y: point.clientY, vertical: false };
        pause();
      }}
      onTouchMove={(event) => {
        const point = event.touches[0];
        if (!point) return;
        const dx = Math.abs(point.clientX - touch.current.x);
        const dy = Math.abs(point.clientY - touch.current.y);
        if (dy > TAP_THRESHOLD_PX && dy > dx) touch.current.vertical = true;
      }}
      onTouchEnd={(event) => {
        const point = event.changedTouches[0];
        resumeSoon();
        if (!point || touch.current.vertical) return;
        const dx = point.clientX - touch.current.x;
        if (Math.abs(dx) >= SWIPE_THRESHOLD_PX) step(dx < 0 ? 1 : -1);
        else if (Math.abs(dx) < TAP_THRESHOLD_PX) {
          const box = event.currentTarget.getBoundingClientRect();
          step(point.clientX < box.left + box.width / 2 ? -1 : 1);
        }
      }}
    >
      <div ref={row} className="flex w-max gap-4 will-change-transform">
        {slotOrder(first % slots, slots).map((slot) => {
          const copy = Math.floor(slot / shown.length);
          const review = shown[slot % shown.length] as Review;
          return (
            // Repeats (a few reviews filling a wide strip) are hidden from screen readers.
            <div
              key={`${copy}-${review.id}`}
              className="w-72 shrink-0 sm:w-80"
              aria-hidden={copy > 0 ? true : undefined}
            >
              <ReviewCard review={review} compact />
            </div>
          );
        })}
      </div>
    </div>
  );
}
