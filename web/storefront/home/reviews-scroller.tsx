import { useEffect, useRef, useState } from 'react';
import { SCROLLER_PX_PER_FRAME, SCROLLER_RESUME_MS, SWIPE_THRESHOLD_PX, TAP_THRESHOLD_PX } from '#common/constants.ts';
import type { Review } from '#common/contracts/reviews.ts';
import { ReviewCard } from '#web/storefront/product/review-card.tsx';

/**
 * An endless strip of reviews moving 0.18 px a frame. It pauses on hover or press and resumes
 * 250 ms after release. On touch: a swipe of 40 px moves a card that way; a tap (under 10 px)
 * moves a card toward the tapped side; a mostly vertical move (past 10 px) is left to the page.
 */
export function ReviewsScroller({ reviews }: { reviews: Review[] }) {
  const track = useRef<HTMLDivElement>(null);
  const state = useRef({ offset: 0, paused: false, resume: undefined as ReturnType<typeof setTimeout> | undefined });

  useEffect(() => {
    const element = track.current;
    if (!element || reviews.length === 0) return;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    let frame = 0;
    const tick = () => {
      const half = element.scrollWidth / 2;
      if (!state.current.paused && !reduced) state.current.offset += SCROLLER_PX_PER_FRAME;
      if (half > 0) state.current.offset = ((state.current.offset % half) + half) % half;
      element.style.transform = `translateX(${-state.current.offset}px)`;
      frame = requestAnimationFrame(tick);
    };
    // The strip moves only while it is on screen: no work for a strip nobody sees.
    const visibility = new IntersectionObserver(([entry]) => {
      cancelAnimationFrame(frame);
      if (entry?.isIntersecting) frame = requestAnimationFrame(tick);
    });
    visibility.observe(element);
    return () => {
      visibility.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(state.current.resume);
    };
  }, [reviews.length]);

  const pause = () => {
    clearTimeout(state.current.resume);
    state.current.paused = true;
  };
  const resumeSoon = () => {
    clearTimeout(state.current.resume);
    state.current.resume = setTimeout(() => {
      state.current.paused = false;
    }, SCROLLER_RESUME_MS);
  };
  const step = (direction: 1 | -1) => {
    const card = track.current?.firstElementChild as HTMLElement | null;
    state.current.offset += direction * (card ? card.offsetWidth + 16 : 300);
  };

  const touch = useRef({ x: 0, y: 0, vertical: false });
  // The second copy (for the seamless loop) is added in the browser: the first HTML needs one.
  const [looping, setLooping] = useState(false);
  useEffect(() => setLooping(true), []);
  if (reviews.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover, press and touch only steer the motion; nothing here is a control.
    <div
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
      <div ref={track} className="flex w-max gap-4 will-change-transform">
        {/* Two copies side by side make the loop seamless; the second is hidden from screen readers. */}
        {(looping ? [0, 1] : [0]).flatMap((copy) =>
          reviews.map((review) => (
            <div
              key={`${copy}-${review.id}`}
              className="w-72 shrink-0 sm:w-80"
              aria-hidden={copy === 1 ? true : undefined}
            >
              <ReviewCard review={review} compact />
            </div>
          )),
        )}
      </div>
    </div>
  );
}
