import { useCallback, useState } from 'react';
import type {
  AdminOrder,
  adminOrderSortFields,
  adminOrderStatusFilters,
  exportAdminOrders,
  listAdminOrders,
  orderExportFormats,
} from '#common/contracts/admin/orders.ts';
import { formatCents } from '#common/money.ts';
import { formatDate } from '../ui/format.ts';
import {
  AdminTable,
  ListFooter,
  listStatus,
  PlainHeaders,
  SearchField,
  SelectField,
  SortControls,
  SortHeader,
  tableStyles,
} from '../ui/list-controls.tsx';
import { listHref, nextSort, type Sort } from '../ui/list-state.ts';
import { secondaryButton, smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';
import { OrderDetails } from './order-details.tsx';
import { OrderStatusBadge } from './order-status-badge.tsx';

type SortField = (typeof adminOrderSortFields)[number];
type StatusFilter = (typeof adminOrderStatusFilters)[number] | '';
type ExportFormat = (typeof orderExportFormats)[number];

const listPath: (typeof listAdminOrders)['path'] = '/api/admin/orders';
const exportPath: (typeof exportAdminOrders)['path'] = '/api/admin/orders/export';
const sortOptions = [
  { value: 'createdAt', label: 'Date' },
  { value: 'total', label: 'Total' },
  { value: 'status', label: 'Status' },
] as const satisfies readonly { value: SortField; label: string }[];
const statusOptions: { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'completed', label: 'Completed' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'cancelled', label: 'Cancelled' },
];
const exportLabels: Record<ExportFormat, string> = { xlsx: 'Download XLSX', csv: 'Export CSV' };
const exportFormats = Object.keys(exportLabels) as ExportFormat[];
const idOf = (order: AdminOrder) => order.id;

/**
 * Orders tab (permission downloadXlsx; spec 2, 7, 9): search by order number, customer name or
 * email, the status filter, sort and order, the table, the XLSX and CSV exports of the same
 * rows, and each order's detail modal.
 */
export default function OrdersTab() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('');
  const [sort, setSort] = useState<Sort<SortField>>({ sortBy: 'createdAt', sortOrder: 'desc' });
  const [open, setOpen] = useState<AdminOrder | null>(null);
  const list = useAdminList<AdminOrder>({
    collection: 'orders',
    path: listPath,
    itemsKey: 'orders',
    params: { search, statusFilter: status || undefined, ...sort },
    idOf,
  });
  const onSort = useCallback((field: SortField) => setSort((current) => nextSort(current, field)), []);

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading" className="font-serif text-2xl text-sage-900">
        Orders
      </h2>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SearchField label="Search orders" value={search} onSearch={setSearch} />
        <SelectField label="Status" value={status} options={statusOptions} onChange={setStatus} />
        <SortControls sort={sort} options={sortOptions} onChange={setSort} />
        <div className="ml-auto flex flex-wrap gap-2">
          {exportFormats.map((format) => (
            // A plain download of every page the list holds: the file streams straight to disk.
            <a
              key={format}
              className={secondaryButton}
              href={listHref(exportPath, { format, search, statusFilter: status, ...sort })}
              download
            >
              {exportLabels[format]}
            </a>
          ))}
        </div>
      </div>
      <AdminTable
        caption="Orders"
        columns={7}
        status={listStatus(list, {
          loading: 'Loading orders…',
          failed: 'Failed to load orders',
          empty: 'No orders found.',
        })}
        headers={
          <>
            <PlainHeaders names={['Order', 'Customer', 'Items']} />
            <SortHeader field="total" sort={sort} onSort={onSort}>
              Total
            </SortHeader>
            <SortHeader field="status" sort={sort} onSort={onSort}>
              Status
            </SortHeader>
            <SortHeader field="createdAt" sort={sort} onSort={onSort}>
              Date
            </SortHeader>
            <PlainHeaders names={['Details']} />
          </>
        }
      >
        {list.rows.map((order) => (
          <tr key={order.id}>
            <td className={`${tableStyles.cell} font-medium whitespace-nowrap text-stone-900`}>{order.orderNumber}</td>
            <td className={tableStyles.cell}>
              <p className="text-stone-900">{order.customerInfo.name}</p>
              <p className="text-xs text-stone-600">{order.customerInfo.email}</p>
            </td>
            <td className={tableStyles.cell}>{order.items.reduce((count, item) => count + item.quantity, 0)}</td>
            <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatCents(order.total)}</td>
            <td className={tableStyles.cell}>
              <OrderStatusBadge status={order.status} />
            </td>
            <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDate(order.createdAt)}</td>
            <td className={tableStyles.cell}>
              <button
                type="button"
                className={smallButton}
                onClick={() => setOpen(order)}
                aria-label={`View order ${order.orderNumber}`}
              >
                View
              </button>
            </td>
          </tr>
        ))}
      </AdminTable>
      <ListFooter list={list} />
      <OrderDetails order={open} onClose={() => setOpen(null)} />
    </section>
  );
}
