import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminPermissions } from '#common/contracts/accounts.ts';
import type { createAdmin, removeAdmin, updateAdminPermissions } from '#common/contracts/admin/admin-setup.ts';
import type { AdminUser, listAdminUsers } from '#common/contracts/admin/users.ts';
import { permissionLabels } from '#common/permissions.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import type { TabProps } from '../tabs.ts';
import { useConfirm } from '../ui/confirm-dialog.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { AdminTable, ListFooter, listStatus, PlainHeaders, SearchField, tableStyles } from '../ui/list-controls.tsx';
import { smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';
import { AuditLog } from './audit-log.tsx';
import { PermissionsDialog } from './permissions-dialog.tsx';

const listPath: (typeof listAdminUsers)['path'] = '/api/admin/users';
const paths = {
  promote: '/api/admin-setup/create-admin' as (typeof createAdmin)['path'],
  remove: '/api/admin-setup/remove-admin' as (typeof removeAdmin)['path'],
  update: '/api/admin-setup/update-permissions' as (typeof updateAdminPermissions)['path'],
};
type Change = { action: keyof typeof paths; user: AdminUser; permissions?: AdminPermissions };
const idOf = (user: AdminUser) => user.id;

/** What an admin may do, in the spec's labels; the owner has everything. */
function permissionSummary(user: AdminUser): string {
  if (user.role === 'owner') return 'All (owner)';
  if (user.role !== 'admin') return '—';
  const granted = Object.entries(permissionLabels)
    .filter(([name]) => user.adminPermissions[name as keyof AdminPermissions])
    .map(([, label]) => label);
  return granted.length > 0 ? granted.join(', ') : 'Dashboard and reviews only';
}

/**
 * Admin management (spec 2, 4, 6 and 8; the owner only, which the server checks on every call):
 * make a user an admin with permissions, edit an admin's permissions, remove admin privileges.
 */
export default function AdminManagementTab({ user: me }: TabProps) {
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ user: AdminUser; mode: 'promote' | 'edit' } | null>(null);
  const list = useAdminList<AdminUser>({
    collection: 'users',
    path: listPath,
    itemsKey: 'users',
    params: { search, sortBy: 'username', sortOrder: 'asc' },
    idOf,
  });
  const { flash, show } = useFlashMessage();
  const { confirm, dialog } = useConfirm();
  const queryClient = useQueryClient();

  const change = useMutation({
    mutationFn: ({ action, user, permissions = {} }: Change) => {
      const userId = user.id;
      if (action === 'remove') {
        return api.call<typeof removeAdmin>({ method: 'POST', path: paths.remove }, { body: { userId } });
      }
      if (action === 'promote') {
        return api.call<typeof createAdmin>({ method: 'POST', path: paths.promote }, { body: { userId, permissions } });
      }
      return api.call<typeof updateAdminPermissions>(
        { method: 'POST', path: paths.update },
        { body: { userId, permissions } },
      );
    },
    onSuccess: (answer) => {
      show('success', answer.message);
      setEditing(null);
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error, { action }) =>
      show(
        'error',
        errorMessage(
          error,
          {
            promote: 'Failed to promote user to admin',
            remove: 'Failed to remove admin privileges',
            update: 'Failed to update permissions',
          }[action],
        ),
      ),
  });

  const askRemove = async (user: AdminUser) => {
    const yes = await confirm({
      title: 'Remove Admin',
      message: `Remove the admin privileges of ${user.username}? They keep their account as a shopper.`,
      confirmLabel: 'Remove Admin',
    });
    if (yes) change.mutate({ action: 'remove', user });
  };

  return (
    <>
      <section aria-labelledby="admins-heading">
        <h2 id="admins-heading" className="font-serif text-2xl text-sage-900">
          Admin management
        </h2>
        <p className="mt-1 text-sm text-stone-600">Make users admins, choose what each admin may do, or remove it.</p>
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <SearchField label="Search users" value={search} onSearch={setSearch} />
        </div>
        <div className="mt-4">
          <FlashMessage flash={flash} />
        </div>
        <AdminTable
          caption="Users and their admin rights"
          columns={5}
          status={listStatus(list, {
            loading: 'Loading users…',
            failed: 'Failed to load users',
            empty: 'No users found.',
          })}
          headers={<PlainHeaders names={['Username', 'Email', 'Role', 'Permissions', 'Actions']} />}
        >
          {list.rows.map((user) => (
            <tr key={user.id}>
              <td className={`${tableStyles.cell} font-medium text-stone-900`}>{user.username}</td>
              <td className={tableStyles.cell}>{user.email}</td>
              <td className={`${tableStyles.cell} capitalize`}>{user.role}</td>
              <td className={tableStyles.cell}>{permissionSummary(user)}</td>
              <td className={tableStyles.cell}>
                {user.role === 'owner' || user.id === me.id ? (
                  <span className="text-stone-600">Cannot be changed</span>
                ) : user.role === 'admin' ? (
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={smallButton}
                      onClick={() => setEditing({ user, mode: 'edit' })}
                      aria-label={`Edit permissions of ${user.username}`}
                    >
                      Edit Permissions
                    </button>
                    <button
                      type="button"
                      className={smallButton}
                      onClick={() => void askRemove(user)}
                      aria-label={`Remove admin privileges of ${user.username}`}
                    >
                      Remove Admin
                    </button>
                  </div>
                ) : (
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => setEditing({ user, mode: 'promote' })}
                    aria-label={`Make Admin: ${user.username}`}
                  >
                    Make Admin
                  </button>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
        <ListFooter list={list} />
      </section>
      <AuditLog />
      <PermissionsDialog
        user={editing?.user ?? null}
        mode={editing?.mode ?? 'edit'}
        busy={change.isPending}
        onClose={() => setEditing(null)}
        onSave={(permissions) =>
          editing &&
          change.mutate({ action: editing.mode === 'promote' ? 'promote' : 'update', user: editing.user, permissions })
        }
      />
      {dialog}
    </>
  );
}
