import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type {
  AdminSale,
  activateSale,
  createSale,
  deactivateSale,
  deleteSale,
  listAdminSales,
  SaleInputBody,
  updateSale,
} from '#common/contracts/admin/sales.ts';
import { type DashboardRange, dashboardRanges } from '#common/dashboard-rules.ts';
import { formatCents } from '#common/money.ts';
import { DEFAULT_SALES_RANGE, saleTypeLabels } from '#common/sale-rules.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { useConfirm } from '../ui/confirm-dialog.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { formatDateTime } from '../ui/format.ts';
import { AdminTable, ListFooter, listStatus, PlainHeaders, SelectField, tableStyles } from '../ui/list-controls.tsx';
import { primaryButton, smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';
import { useAdminWrite } from '../ui/use-admin-write.ts';
import { SaleDialog } from './sale-dialog.tsx';
import { discountText } from './sale-form.ts';

const paths = {
  list: '/api/sales' as (typeof listAdminSales)['path'],
  create: '/api/sales' as (typeof createSale)['path'],
  update: '/api/sales/:id' as (typeof updateSale)['path'],
  activate: '/api/sales/:id/activate' as (typeof activateSale)['path'],
  deactivate: '/api/sales/:id/deactivate' as (typeof deactivateSale)['path'],
  remove: '/api/sales/:id' as (typeof deleteSale)['path'],
};
const rangeLabels: Record<DashboardRange, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '1y': 'Last year',
  all: 'All time',
};
const rangeOptions = dashboardRanges.map((value) => ({ value, label: rangeLabels[value] }));

/** Where a sale stands now: switched off, not started, running, or over. */
function stateOf(sale: AdminSale, now: number) {
  if (!sale.active) return { label: 'Inactive', style: 'bg-stone-100 text-stone-800' };
  if (Date.parse(sale.endDate) <= now) return { label: 'Ended', style: 'bg-stone-100 text-stone-800' };
  if (Date.parse(sale.startDate) > now) return { label: 'Scheduled', style: 'bg-amber-100 text-amber-900' };
  if (sale.usageLimit !== null && sale.usageCount >= sale.usageLimit) {
    return { label: 'Used up', style: 'bg-amber-100 text-amber-900' };
  }
  return { label: 'Active', style: 'bg-sage-100 text-sage-900' };
}

type Editing = { sale: AdminSale | null } | null;
const idOf = (sale: AdminSale) => sale.id;

/**
 * Sales tab (permission uploadProducts; spec 2, 3, 5, 7, 9): every sale with its scope, discount,
 * code, dates, usage and the paid orders that used it over the range (30 days first); the
 * create-sale modal, edit, activate and deactivate, and delete after a confirm.
 */
export default function SalesTab() {
  const [range, setRange] = useState<DashboardRange>(DEFAULT_SALES_RANGE);
  const [editing, setEditing] = useState<Editing>(null);
  const [saveError, setSaveError] = useState<{ message: string; field: string | undefined } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const { flash, show } = useFlashMessage();
  const { confirm, dialog } = useConfirm();
  const queryClient = useQueryClient();
  const list = useAdminList<AdminSale>({
    collection: 'sales',
    path: paths.list,
    itemsKey: 'sales',
    params: { dateRange: range },
    idOf,
  });
  // The states (scheduled, active, ended) follow the clock, read again whenever the rows change:
  // a sale made or switched on this second starts now, not up to a minute ago (it showed
  // 'Scheduled' until the next tick).
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows are the trigger, not an input.
  useEffect(() => setNow(Date.now()), [list.rows]);

  const done = (message: string) => {
    show('success', message);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'sales'] });
  };
  const save = useMutation({
    mutationFn: ({ sale, body }: { sale: AdminSale | null; body: SaleInputBody }) =>
      sale
        ? api.call<typeof updateSale>({ method: 'PATCH', path: paths.update }, { params: { id: sale.id }, body })
        : api.call<typeof createSale>({ method: 'POST', path: paths.create }, { body }),
    onMutate: () => setSaveError(null),
    onSuccess: (answer) => {
      setEditing(null);
      done(answer.message);
    },
    onError: (error) =>
      setSaveError({
        message: errorMessage(error, 'Failed to save the sale'),
        field: error instanceof ApiRequestError ? error.field : undefined,
      }),
  });
  const toggle = useAdminWrite({
    collection: 'sales',
    show,
    call: (sale: AdminSale) =>
      sale.active
        ? api.call<typeof deactivateSale>({ method: 'PATCH', path: paths.deactivate }, { params: { id: sale.id } })
        : api.call<typeof activateSale>({ method: 'PATCH', path: paths.activate }, { params: { id: sale.id } }),
    failure: 'Failed to update the sale',
  });
  const remove = useAdminWrite({
    collection: 'sales',
    show,
    call: (sale: AdminSale) =>
      api.call<typeof deleteSale>({ method: 'DELETE', path: paths.remove }, { params: { id: sale.id } }),
    failure: 'Failed to delete the sale',
  });

  const askDelete = async (sale: AdminSale) => {
    const yes = await confirm({
      title: 'Delete sale',
      message: `Delete the sale “${sale.name}”? Orders that used it keep their prices. This cannot be undone.`,
      confirmLabel: 'Delete sale',
    });
    if (yes) remove.mutate(sale);
  };
  const open = (sale: AdminSale | null) => {
    setSaveError(null);
    setEditing({ sale });
  };

  const sales = list.rows;
  const status = listStatus(list, {
    loading: 'Loading sales…',
    failed: 'Failed to load sales',
    empty: 'No sales yet.',
  });

  return (
    <section aria-labelledby="sales-heading">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="sales-heading" className="font-serif text-2xl text-sage-900">
          Sales
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <SelectField label="Orders and revenue over" value={range} options={rangeOptions} onChange={setRange} />
          <button type="button" className={primaryButton} onClick={() => open(null)}>
            Create Sale
          </button>
        </div>
      </div>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>
      <AdminTable
        caption={`Sales, with orders and revenue over the ${rangeLabels[range].toLowerCase()}`}
        columns={9}
        status={status}
        headers={
          <PlainHeaders
            names={[
              'Sale',
              'Applies to',
              'Discount',
              'Code',
              'Dates',
              'Usage',
              'Orders and revenue',
              'Status',
              'Actions',
            ]}
          />
        }
      >
        {sales.map((sale) => {
          const state = stateOf(sale, now);
          return (
            <tr key={sale.id}>
              <td className={`${tableStyles.cell} max-w-xs`}>
                <p className="font-medium text-stone-900">{sale.name}</p>
                {sale.description ? <p className="line-clamp-2 text-stone-700">{sale.description}</p> : null}
                {sale.isFlashSale ? <p className="mt-1 text-xs font-medium text-red-800">Flash sale</p> : null}
              </td>
              <td className={tableStyles.cell}>
                <p>{saleTypeLabels[sale.type]}</p>
                {sale.type === 'global' ? null : (
                  <p className="text-xs text-stone-600">{sale.targetName ?? `${sale.targetId} (no longer exists)`}</p>
                )}
              </td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>
                <p>{discountText(sale, formatCents)}</p>
                {sale.minimumPurchase > 0 ? (
                  <p className="text-xs text-stone-600">From {formatCents(sale.minimumPurchase)}</p>
                ) : null}
              </td>
              <td className={`${tableStyles.cell} font-mono`}>
                {sale.couponCode ?? <span className="font-sans">Automatic</span>}
              </td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>
                <p>{formatDateTime(sale.startDate)}</p>
                <p className="text-stone-600">to {formatDateTime(sale.endDate)}</p>
              </td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>
                {sale.usageCount} / {sale.usageLimit ?? '∞'}
              </td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>
                <p>{sale.orders === 1 ? '1 order' : `${sale.orders} orders`}</p>
                <p className="text-stone-600">{formatCents(sale.revenue)}</p>
              </td>
              <td className={tableStyles.cell}>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${state.style}`}>{state.label}</span>
              </td>
              <td className={tableStyles.cell}>
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => open(sale)}
                    aria-label={`Edit the sale ${sale.name}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={toggle.isPending}
                    onClick={() => toggle.mutate(sale)}
                    aria-label={`${sale.active ? 'Deactivate' : 'Activate'} the sale ${sale.name}`}
                  >
                    {sale.active ? 'Deactivate' : 'Activate'}
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => void askDelete(sale)}
                    aria-label={`Delete the sale ${sale.name}`}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          );
        })}
      </AdminTable>
      <ListFooter list={list} />
      <SaleDialog
        key={editing ? (editing.sale?.id ?? 'new') : 'closed'}
        sale={editing?.sale ?? null}
        open={editing !== null}
        busy={save.isPending}
        serverError={saveError}
        onSave={(body) => editing && save.mutate({ sale: editing.sale, body })}
        onClose={() => setEditing(null)}
      />
      {dialog}
    </section>
  );
}
