import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DashboardPoint } from '#common/contracts/admin/dashboard.ts';
import type { SeriesGranularity } from '#common/dashboard-rules.ts';
import { formatCents } from '#common/money.ts';

/**
 * The dashboard's charts (Recharts, loaded only with a chart modal): one point per bucket of the
 * range. Each chart has its figures as a table beside it, for screen readers and exact numbers.
 */

const colors = { revenue: '#3c5343', costs: '#b45309', profit: '#1d4ed8', pageViews: '#3c5343', visitors: '#b45309' };

function bucketLabel(iso: string, granularity: SeriesGranularity): string {
  const date = new Date(iso);
  if (granularity === 'hour') {
    return date.toLocaleTimeString('en-US', { hour: 'numeric', timeZone: 'UTC' });
  }
  if (granularity === 'month')
    return date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

const dollars = (cents: number) => formatCents(cents);

export function ProfitRevenueChart({
  series,
  granularity,
}: {
  series: DashboardPoint[];
  granularity: SeriesGranularity;
}) {
  const points = series.map((point) => ({ ...point, label: bucketLabel(point.date, granularity) }));
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-stone-700">
        Revenue, AliExpress costs and profit per {granularity}
      </figcaption>
      <div className="h-80 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e7ebe8" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#44403c' }} minTickGap={16} />
            <YAxis tickFormatter={dollars} tick={{ fontSize: 12, fill: '#44403c' }} width={80} />
            <Tooltip formatter={(value) => dollars(Number(value))} />
            <Legend />
            <Bar dataKey="revenue" name="Revenue" fill={colors.revenue} />
            <Bar dataKey="costs" name="AliExpress costs" fill={colors.costs} />
            <Line dataKey="profit" name="Profit" stroke={colors.profit} strokeWidth={2} dot={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <FiguresTable
        caption="Revenue, costs and profit"
        columns={['Revenue', 'Costs', 'Profit', 'Orders']}
        rows={points.map((p) => [p.label, dollars(p.revenue), dollars(p.costs), dollars(p.profit), String(p.orders)])}
      />
    </figure>
  );
}

export function VisitorChart({ series, granularity }: { series: DashboardPoint[]; granularity: SeriesGranularity }) {
  const points = series.map((point) => ({ ...point, label: bucketLabel(point.date, granularity) }));
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-stone-700">Page views and visitors per {granularity}</figcaption>
      <div className="h-80 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e7ebe8" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#44403c' }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#44403c' }} />
            <Tooltip />
            <Legend />
            <Line dataKey="pageViews" name="Page views" stroke={colors.pageViews} strokeWidth={2} dot={false} />
            <Line dataKey="visitors" name="Visitors" stroke={colors.visitors} strokeWidth={2} dot={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <FiguresTable
        caption="Page views and visitors"
        columns={['Page views', 'Visitors']}
        rows={points.map((p) => [p.label, String(p.pageViews), String(p.visitors)])}
      />
    </figure>
  );
}

function FiguresTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: string[][] }) {
  return (
    <details className="mt-4 text-sm">
      <summary className="cursor-pointer text-sage-800 underline">Show the figures as a table</summary>
      <div className="mt-2 max-h-64 overflow-auto">
        <table className="min-w-full text-left">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1">
                Period
              </th>
              {columns.map((column) => (
                <th key={column} scope="col" className="px-2 py-1">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, ...cells], index) => (
              // Labels can repeat (hours of two days): the position keys the row.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows never move.
              <tr key={index}>
                <th scope="row" className="px-2 py-1 font-normal">
                  {label}
                </th>
                {cells.map((cell, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns never move.
                  <td key={column} className="px-2 py-1">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
