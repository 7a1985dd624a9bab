import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  AdminUser,
  adminUserSortFields,
  listAdminUsers,
  resetUserPassword,
} from '#common/contracts/admin/users.ts';
import { errorMessage } from '#web/common/api-client.ts';
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
  SortControls,
  SortHeader,
  tableStyles,
} from '../ui/list-controls.tsx';
import { nextSort, type Sort } from '../ui/list-state.ts';
import { smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';

type SortField = (typeof adminUserSortFields)[number];
const sortOptions = [
  { value: 'createdAt', label: 'Joined' },
  { value: 'username', label: 'Username' },
  { value: 'email', label: 'Email' },
] as const satisfies readonly { value: SortField; label: string }[];

const listPath: (typeof listAdminUsers)['path'] = '/api/admin/users';
const resetPath: (typeof resetUserPassword)['path'] = '/api/admin/users/:id/reset-password';
const idOf = (user: AdminUser) => user.id;

/** Users tab (spec 2): search, sort, order toggle, the table, and Reset password. */
export default function UsersTab() {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort<SortField>>({ sortBy: 'createdAt', sortOrder: 'desc' });
  const list = useAdminList<AdminUser>({
    collection: 'users',
    path: listPath,
    itemsKey: 'users',
    params: { search, ...sort },
    idOf,
  });
  const { flash, show } = useFlashMessage();
  const { confirm, dialog } = useConfirm();
  const reset = useMutation({
    mutationFn: (user: AdminUser) =>
      api.call<typeof resetUserPassword>({ method: 'POST', path: resetPath }, { params: { id: user.id } }),
    onSuccess: (answer) => show('success', answer.message),
    onError: (error) => show('error', errorMessage(error, 'Failed to send the password reset email')),
  });

  const askReset = async (user: AdminUser) => {
    const yes = await confirm({
      title: 'Reset password',
      message: `Send a password reset email to ${user.email}?`,
      confirmLabel: 'Send reset email',
    });
    if (yes) reset.mutate(user);
  };
  const onSort = useCallback((field: SortField) => setSort((current) => nextSort(current, field)), []);

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading" className="font-serif text-2xl text-sage-900">
        Users
      </h2>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SearchField label="Search users" value={search} onSearch={setSearch} />
        <SortControls sort={sort} options={sortOptions} onChange={setSort} />
      </div>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>
      <AdminTable
        caption="Users"
        columns={6}
        status={listStatus(list, {
          loading: 'Loading users…',
          failed: 'Failed to load users',
          empty: 'No users found.',
        })}
        headers={
          <>
            <SortHeader field="username" sort={sort} onSort={onSort}>
              Username
            </SortHeader>
            <SortHeader field="email" sort={sort} onSort={onSort}>
              Email
            </SortHeader>
            <PlainHeaders names={['Role']} />
            <SortHeader field="createdAt" sort={sort} onSort={onSort}>
              Joined
            </SortHeader>
            <PlainHeaders names={['Last sign-in', 'Actions']} />
          </>
        }
      >
        {list.rows.map((user) => (
          <tr key={user.id}>
            <td className={`${tableStyles.cell} font-medium text-stone-900`}>{user.username}</td>
            <td className={tableStyles.cell}>{user.email}</td>
            <td className={`${tableStyles.cell} capitalize`}>{user.role}</td>
            <td className={tableStyles.cell}>{formatDate(user.createdAt)}</td>
            <td className={tableStyles.cell}>{formatDateTime(user.lastLoginAt)}</td>
            <td className={tableStyles.cell}>
              <button
                type="button"
                className={smallButton}
                onClick={() => void askReset(user)}
                disabled={reset.isPending && reset.variables?.id === user.id}
                aria-label={`Reset password of ${user.username}`}
              >
                Reset password
              </button>
            </td>
          </tr>
        ))}
      </AdminTable>
      <ListFooter list={list} />
      {dialog}
    </section>
  );
}
