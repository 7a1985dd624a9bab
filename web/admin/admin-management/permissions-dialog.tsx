import { useEffect, useId, useState } from 'react';
import type { AdminPermissions } from '#common/contracts/accounts.ts';
import type { AdminUser } from '#common/contracts/admin/users.ts';
import { permissionLabels, permissionNames } from '#common/permissions.ts';
import { Modal } from '../ui/modal.tsx';
import { primaryButton, secondaryButton } from '../ui/styles.ts';

/** Make Admin and Edit Permissions (spec 4): the four permissions with the spec's labels. */
export function PermissionsDialog({
  user,
  mode,
  busy,
  onSave,
  onClose,
}: {
  user: AdminUser | null;
  mode: 'promote' | 'edit';
  busy: boolean;
  onSave: (permissions: AdminPermissions) => void;
  onClose: () => void;
}) {
  const [permissions, setPermissions] = useState<AdminPermissions>({});
  const groupId = useId();
  useEffect(() => setPermissions(user?.adminPermissions ?? {}), [user]);
  const title = mode === 'promote' ? 'Make Admin' : 'Edit Permissions';
  return (
    <Modal
      open={user !== null}
      onClose={onClose}
      title={title}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={primaryButton} disabled={busy} onClick={() => onSave(permissions)}>
            {busy ? 'Saving…' : mode === 'promote' ? 'Make Admin' : 'Save Permissions'}
          </button>
        </>
      }
    >
      <fieldset aria-describedby={groupId}>
        <legend className="font-medium text-stone-900">Permissions of {user?.username}</legend>
        <p id={groupId} className="mt-1 text-sm text-stone-600">
          Every admin sees the dashboard and reviews; each permission opens more of the back office.
        </p>
        <div className="mt-4 space-y-3">
          {permissionNames.map((name) => (
            <label key={name} className="flex items-center gap-3 text-stone-800">
              <input
                type="checkbox"
                className="h-4 w-4 accent-sage-700"
                checked={permissions[name] === true}
                onChange={(event) => setPermissions((current) => ({ ...current, [name]: event.target.checked }))}
              />
              {permissionLabels[name]}
            </label>
          ))}
        </div>
      </fieldset>
    </Modal>
  );
}
