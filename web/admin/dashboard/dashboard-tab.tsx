import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import type { Dashboard, getDashboard } from '#common/contracts/admin/dashboard.ts';
import {
  DASHBOARD_REFRESH_SECONDS,
  type DashboardRange,
  DEFAULT_DASHBOARD_RANGE,
  DEFAULT_DASHBOARD_REFRESH_SECONDS,
  dashboardRanges,
} from '#common/dashboard-rules.ts';
import { formatCents } from '#common/money.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { formatDateTime } from '../ui/format.ts';
import { AdminTable, PlainHeaders, SelectField, tableStyles } from '../ui/list-controls.tsx';
import { Modal } from '../ui/modal.tsx';
import { secondaryButton } from '../ui/styles.ts';

// The charts (and their library) load only when a chart modal opens.
const ProfitRevenueChart = lazy(() =>
  import('./dashboard-charts.tsx').then((m) => ({ default: m.ProfitRevenueChart })),
);
const VisitorChart = lazy(() => import('./dashboard-charts.tsx').then((m) => ({ default: m.VisitorChart })));

const path: (typeof getDashboard)['path'] = '/api/admin/dashboard';

export const rangeLabels: Record<DashboardRange, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '1y': 'Last year',
  all: 'All time',
};
const rangeOptions = dashboardRanges.map((value) => ({ value, label: rangeLabels[value] }));
const intervalOptions = DASHBOARD_REFRESH_SECONDS.map((seconds) => ({
  value: String(seconds),
  label: seconds < 60 ? `Every ${seconds} s` : `Every ${seconds / 60} min`,
}));
const numberFormat = new Intl.NumberFormat('en-US');

/**
 * Dashboard tab (spec 2, 4, 9): range selector ('all' first), refresh, auto-refresh (on, every
 * 30 s), the stat cards, the recent orders, the popular pages, and the two chart modals.
 */
export default function DashboardTab() {
  const [range, setRange] = useState<DashboardRange>(DEFAULT_DASHBOARD_RANGE);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [intervalSeconds, setIntervalSeconds] = useState<number>(DEFAULT_DASHBOARD_REFRESH_SECONDS);
  const [modal, setModal] = useState<'profit' | 'visitors' | null>(null);
  const autoId = useId();
  const query = useQuery({
    queryKey: ['admin', 'dashboard', range],
    queryFn: () => api.call<typeof getDashboard>({ method: 'GET', path }, { query: { timeRange: range } }),
    refetchInterval: autoRefresh ? intervalSeconds * 1000 : false,
  });
  const data = query.data;

  return (
    <section aria-labelledby="dashboard-heading">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="dashboard-heading" className="font-serif text-2xl text-sage-900">
          Dashboard
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <SelectField label="Time range" value={range} options={rangeOptions} onChange={setRange} />
          <div className="flex items-center gap-2 pb-2">
            <input
              id={autoId}
              type="checkbox"
              className="h-4 w-4 accent-sage-700"
              checked={autoRefresh}
              onChange={(event) => setAutoRefresh(event.target.checked)}
            />
            <label htmlFor={autoId} className="text-sm text-stone-800">
              Auto-refresh
            </label>
          </div>
          <SelectField
            label="Refresh interval"
            value={String(intervalSeconds)}
            options={intervalOptions}
            onChange={(value) => setIntervalSeconds(Number(value))}
          />
          <button
            type="button"
            className={`${secondaryButton} mb-0.5`}
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
          >
            {query.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      <p className="mt-2 text-xs text-stone-600" aria-live="polite">
        {data ? `Updated ${formatDateTime(data.timestamp)}` : null}
      </p>

      {query.error && !data ? (
        <p role="alert" className="mt-6 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          {errorMessage(query.error, 'Failed to load the dashboard')}
        </p>
      ) : !data ? (
        <p role="status" className="mt-6 text-sm text-stone-600">
          Loading the dashboard…
        </p>
      ) : (
        <>
          <StatCards data={data} onOpen={setModal} />
          <div className="mt-8 grid gap-8 lg:grid-cols-3">
            <RecentOrders orders={data.recentOrders} />
            <PopularPages pages={data.stats.pageViewsByPage} />
          </div>
          <Modal open={modal === 'profit'} onClose={() => setModal(null)} title="Profit and Revenue" size="xl">
            <ModalFigures
              figures={[
                ['Revenue', formatCents(data.stats.totalRevenue)],
                ['AliExpress costs', formatCents(data.stats.totalAliExpressCosts)],
                ['Profit', formatCents(data.stats.totalProfit)],
                ['Profit margin', `${data.stats.profitMargin}%`],
                ['Orders', numberFormat.format(data.stats.totalOrders)],
              ]}
            />
            <Suspense fallback={<ChartLoading />}>
              <ProfitRevenueChart series={data.series} granularity={data.range.granularity} />
            </Suspense>
          </Modal>
          <Modal open={modal === 'visitors'} onClose={() => setModal(null)} title="Visitor Analytics" size="xl">
            <ModalFigures
              figures={[
                ['Visitors', numberFormat.format(data.stats.totalVisitors)],
                ['Page views', numberFormat.format(data.stats.totalPageViews)],
                ['Bounce rate', `${data.stats.bounceRate}%`],
                ['Avg. session', `${data.stats.averageSessionDuration} min`],
                ['Conversion rate', `${data.stats.avgConversionRate}%`],
              ]}
            />
            <Suspense fallback={<ChartLoading />}>
              <VisitorChart series={data.series} granularity={data.range.granularity} />
            </Suspense>
          </Modal>
        </>
      )}
    </section>
  );
}

function ChartLoading() {
  return (
    <p role="status" className="py-16 text-center text-sm text-stone-600">
      Loading the chart…
    </p>
  );
}

function ModalFigures({ figures }: { figures: [string, string][] }) {
  return (
    <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-5">
      {figures.map(([name, value]) => (
        <div key={name} className="rounded-lg bg-sage-50 px-3 py-2">
          <dt className="text-xs text-stone-600">{name}</dt>
          <dd className="font-semibold text-stone-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function StatCards({ data, onOpen }: { data: Dashboard; onOpen: (modal: 'profit' | 'visitors') => void }) {
  const { stats } = data;
  const cards: { label: string; value: string; note?: string; opens?: 'profit' | 'visitors' }[] = [
    { label: 'Total Revenue', value: formatCents(stats.totalRevenue), opens: 'profit' },
    {
      label: 'Total Profit',
      value: formatCents(stats.totalProfit),
      note: `${stats.profitMargin}% margin · costs ${formatCents(stats.totalAliExpressCosts)}`,
      opens: 'profit',
    },
    { label: 'Total Orders', value: numberFormat.format(stats.totalOrders) },
    {
      label: 'Visitors',
      value: numberFormat.format(stats.totalVisitors),
      note: `${stats.avgConversionRate}% conversion`,
      opens: 'visitors',
    },
    {
      label: 'Page Views',
      value: numberFormat.format(stats.totalPageViews),
      note: `${stats.bounceRate}% bounce rate`,
      opens: 'visitors',
    },
    { label: 'Avg. Session', value: `${stats.averageSessionDuration} min` },
    { label: 'Users', value: numberFormat.format(stats.totalUsers) },
    { label: 'Reviews', value: numberFormat.format(stats.totalReviews) },
  ];
  return (
    <div className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-4">
      {cards.map((card) => (
        <div key={card.label} className="rounded-xl border border-sage-100 bg-white p-4">
          <p className="text-sm text-stone-600">{card.label}</p>
          <p className="mt-1 font-semibold text-2xl text-stone-900">{card.value}</p>
          {card.note ? <p className="mt-1 text-xs text-stone-600">{card.note}</p> : null}
          {card.opens ? (
            <button
              type="button"
              onClick={() => card.opens && onOpen(card.opens)}
              className="mt-2 text-sm text-sage-800 underline hover:text-sage-900"
            >
              {card.opens === 'profit' ? 'Profit and revenue chart' : 'Visitor analytics chart'}
              <span className="sr-only"> ({card.label})</span>
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}

function RecentOrders({ orders }: { orders: Dashboard['recentOrders'] }) {
  return (
    <div className="lg:col-span-2">
      <h3 className="font-serif text-xl text-sage-900">Recent orders</h3>
      <div className="mt-3">
        <AdminTable
          caption="Recent orders"
          columns={6}
          status={orders.length === 0 ? 'No orders in this range.' : null}
          headers={<PlainHeaders names={['Order', 'Customer', 'Items', 'Total', 'Status', 'Placed']} />}
        >
          {orders.map((order) => (
            <tr key={order.id}>
              <td className={`${tableStyles.cell} font-mono text-xs`}>{order.orderNumber}</td>
              <td className={tableStyles.cell}>
                {order.customerInfo.name}
                <span className="block text-xs text-stone-600">{order.customerInfo.email}</span>
              </td>
              <td className={tableStyles.cell}>{order.itemCount}</td>
              <td className={tableStyles.cell}>{formatCents(order.total)}</td>
              <td className={`${tableStyles.cell} capitalize`}>{order.status}</td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDateTime(order.createdAt)}</td>
            </tr>
          ))}
        </AdminTable>
      </div>
    </div>
  );
}

function PopularPages({ pages }: { pages: Record<string, number> }) {
  const entries = Object.entries(pages);
  return (
    <div>
      <h3 className="font-serif text-xl text-sage-900">Popular pages</h3>
      {entries.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600">No page views in this range.</p>
      ) : (
        <ol className="mt-3 space-y-2">
          {entries.map(([page, views]) => (
            <li key={page} className="flex justify-between gap-3 rounded-lg bg-white px-3 py-2 text-sm">
              <span className="truncate font-mono text-xs text-stone-800" title={page}>
                {page}
              </span>
              <span className="whitespace-nowrap text-stone-700">{numberFormat.format(views)} views</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
