import { useEffect, useState } from 'react';
import { countdown, flashSalePercent } from '#common/catalog-rules.ts';
import type { FlashSale } from '#common/contracts/marketing.ts';
import { formatCents } from '#common/money.ts';

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Shown while the sale runs; the countdown ticks every second (days only above zero) and the
 * banner leaves at the end. The server's page holds no ticking digits (only the days, in the same
 * width), so the page stays the same for a day and a cache can keep it; the browser's clock fills
 * them in at once.
 */
export function FlashSaleBanner({ sale }: { sale: FlashSale }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = countdown(sale.endTime, now ?? Date.now());
  if (!sale.isActive || !left) return null;
  const percent = flashSalePercent(sale.originalPrice, sale.salePrice);
  return (
    <section
      aria-label="Flash sale"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-gradient-to-r from-rose-700 to-amber-700 px-5 py-4 text-white"
    >
      <div>
        <p className="text-sm font-bold tracking-wide uppercase">Flash sale · {percent}% off</p>
        <p className="text-sm text-white/90">
          {sale.description} Now {formatCents(sale.salePrice)} instead of {formatCents(sale.originalPrice)}.
        </p>
      </div>
      <p className="font-mono text-lg font-semibold tabular-nums" data-testid="flash-countdown">
        {`${left.days > 0 ? `${left.days}d ` : ''}${now === null ? '--:--:--' : `${two(left.hours)}:${two(left.minutes)}:${two(left.seconds)}`}`}
      </p>
    </section>
  );
}
