import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  AdminSubscriber,
  adminSubscriberSortFields,
  deleteSubscriber,
  exportSubscribers,
  listAdminSubscribers,
  SubscriberStatus,
  updateSubscriber,
} from '#common/contracts/admin/newsletter.ts';
import { api } from '#web/common/browser-api.ts';
import { useConfirm } from '../ui/confirm-dialog.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { formatDate, formatDateTime } from '../ui/format.ts';
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
import { primaryButton, secondaryButton, smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';
import { useAdminWrite } from '../ui/use-admin-write.ts';
import { SendNewsletterDialog } from './send-newsletter-dialog.tsx';
import { SendProgress } from './send-progress.tsx';

type SortField = (typeof adminSubscriberSortFields)[number];
type StatusFilter = SubscriberStatus | '';

const paths = {
  list: '/api/admin/newsletter' as (typeof listAdminSubscribers)['path'],
  update: '/api/admin/newsletter/:id' as (typeof updateSubscriber)['path'],
  remove: '/api/admin/newsletter/:id' as (typeof deleteSubscriber)['path'],
  export: '/api/admin/newsletter/export' as (typeof exportSubscribers)['path'],
};
const sortOptions = [
  { value: 'createdAt', label: 'Subscribed' },
  { value: 'email', label: 'Email' },
] as const satisfies readonly { value: SortField; label: string }[];
const statusLabels: Record<SubscriberStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  pending: 'Awaiting confirmation',
};
const statusOptions: { value: StatusFilter; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'active', label: statusLabels.active },
  { value: 'inactive', label: statusLabels.inactive },
  { value: 'pending', label: statusLabels.pending },
];
const statusStyles: Record<SubscriberStatus, string> = {
  active: 'bg-sage-100 text-sage-900',
  inactive: 'bg-stone-100 text-stone-800',
  pending: 'bg-amber-100 text-amber-900',
};
const idOf = (subscriber: AdminSubscriber) => subscriber._id;

/**
 * Newsletter tab (permission manageNewsletters; spec 2, 4, 7, 9): the subscribers searched,
 * filtered and sorted (newest first), Activate/Deactivate, delete after a confirm, the CSV export
 * of what the list shows, and the send-newsletter modal with the latest send's progress.
 */
export default function NewsletterTab() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('');
  const [sort, setSort] = useState<Sort<SortField>>({ sortBy: 'createdAt', sortOrder: 'desc' });
  const [composing, setComposing] = useState(false);
  const list = useAdminList<AdminSubscriber>({
    collection: 'newslettersubscribers',
    path: paths.list,
    itemsKey: 'subscribers',
    params: { search, statusFilter: status || undefined, ...sort },
    idOf,
  });
  const { flash, show } = useFlashMessage();
  const { confirm, dialog } = useConfirm();
  const queryClient = useQueryClient();
  const toggle = useAdminWrite({
    collection: 'newslettersubscribers',
    show,
    call: (subscriber: AdminSubscriber) =>
      api.call<typeof updateSubscriber>(
        { method: 'PATCH', path: paths.update },
        { params: { id: subscriber._id }, body: { isActive: !subscriber.isActive } },
      ),
    failure: 'Failed to update the subscriber',
  });
  const remove = useAdminWrite({
    collection: 'newslettersubscribers',
    show,
    call: (subscriber: AdminSubscriber) =>
      api.call<typeof deleteSubscriber>({ method: 'DELETE', path: paths.remove }, { params: { id: subscriber._id } }),
    failure: 'Failed to delete the subscriber',
  });
  const askDelete = async (subscriber: AdminSubscriber) => {
    const yes = await confirm({
      title: 'Delete subscriber',
      message: `Delete ${subscriber.email} from the newsletter? This cannot be undone.`,
      confirmLabel: 'Delete subscriber',
    });
    if (yes) remove.mutate(subscriber);
  };
  // Spec 4: a new column starts asc, except in the newsletter's list, where it starts desc.
  const onSort = useCallback((field: SortField) => setSort((current) => nextSort(current, field, 'desc')), []);

  return (
    <section aria-labelledby="newsletter-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="newsletter-heading" className="font-serif text-2xl text-sage-900">
          Newsletter
        </h2>
        <button type="button" className={primaryButton} onClick={() => setComposing(true)}>
          Send Newsletter
        </button>
      </div>
      <SendProgress />
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SearchField label="Search subscribers" value={search} onSearch={setSearch} />
        <SelectField label="Status" value={status} options={statusOptions} onChange={setStatus} />
        <SortControls sort={sort} options={sortOptions} onChange={setSort} />
        <a
          className={`${secondaryButton} ml-auto`}
          href={listHref(paths.export, { search, statusFilter: status, ...sort })}
          download
        >
          Export CSV
        </a>
      </div>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>
      <AdminTable
        caption="Newsletter subscribers"
        columns={6}
        status={listStatus(list, {
          loading: 'Loading subscribers…',
          failed: 'Failed to load subscribers',
          empty: 'No subscribers found.',
        })}
        headers={
          <>
            <SortHeader field="email" sort={sort} onSort={onSort}>
              Email
            </SortHeader>
            <PlainHeaders names={['Status', 'Source']} />
            <SortHeader field="createdAt" sort={sort} onSort={onSort}>
              Subscribed
            </SortHeader>
            <PlainHeaders names={['Last email sent', 'Actions']} />
          </>
        }
      >
        {list.rows.map((subscriber) => (
          <tr key={subscriber._id}>
            <td className={`${tableStyles.cell} font-medium text-stone-900`}>{subscriber.email}</td>
            <td className={tableStyles.cell}>
              <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusStyles[subscriber.status]}`}>
                {statusLabels[subscriber.status]}
              </span>
            </td>
            <td className={`${tableStyles.cell} capitalize`}>{subscriber.source}</td>
            <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDate(subscriber.createdAt)}</td>
            <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDateTime(subscriber.lastEmailSent)}</td>
            <td className={tableStyles.cell}>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={smallButton}
                  disabled={toggle.isPending && toggle.variables?._id === subscriber._id}
                  onClick={() => toggle.mutate(subscriber)}
                  aria-label={`${subscriber.isActive ? 'Deactivate' : 'Activate'} ${subscriber.email}`}
                >
                  {subscriber.isActive ? 'Deactivate' : 'Activate'}
                </button>
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => void askDelete(subscriber)}
                  aria-label={`Delete ${subscriber.email}`}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        ))}
      </AdminTable>
      <ListFooter list={list} />
      <SendNewsletterDialog
        open={composing}
        onClose={() => setComposing(false)}
        onQueued={(message) => {
          setComposing(false);
          show('success', message);
          void queryClient.invalidateQueries({ queryKey: ['admin', 'newsletter-sends'] });
        }}
      />
      {dialog}
    </section>
  );
}
