import { eq } from 'drizzle-orm';
import type { AdminPermissions } from '#common/contracts/accounts.ts';
import { adminSetupMessages } from '#common/contracts/admin/admin-setup.ts';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import { AppError, notFound } from '#server/http/errors.ts';
import { users } from './accounts.tables.ts';
import { adminUserColumns, toAdminUser } from './admin-users.service.ts';

/** Who made a change, and from where (the audit log's who and address). */
export type Actor = { userId: string; ip: string };

type Change = 'promote' | 'remove' | 'update';

const messages: Record<Change, string> = {
  promote: adminSetupMessages.promoted,
  remove: adminSetupMessages.removed,
  update: adminSetupMessages.updated,
};
const actions: Record<Change, string> = {
  promote: 'user.promoted',
  remove: 'user.demoted',
  update: 'user.permissions_updated',
};

/**
 * The admin-management tab (back-office spec 5 and 6, owner only): make a user an admin with
 * permissions, take the rights away, change an admin's permissions. The owner cannot be modified.
 * Each change and its audit record are written in one transaction, from the row locked first;
 * once committed, the change is a `user_updated` live event (which also ends a demoted admin's
 * open stream at once).
 */
export function createAdminManagementService({ db, events }: { db: Db; events: DomainEvents }) {
  async function change(kind: Change, actor: Actor, userId: string, permissions: AdminPermissions = {}) {
    const result = await db.transaction(async (tx) => {
      const [before] = await tx.select(adminUserColumns).from(users).where(eq(users.id, userId)).for('update');
      if (!before) throw notFound('User not found');
      if (before.role === 'owner') throw new AppError(403, 'owner_protected', adminSetupMessages.ownerProtected);
      if (kind === 'update' && before.role !== 'admin') {
        throw new AppError(
          409,
          'not_an_admin',
          'Only an admin’s permissions can be updated: make the user an admin first',
        );
      }
      const after =
        kind === 'remove'
          ? { role: 'user' as const, adminPermissions: {} }
          : { role: 'admin' as const, adminPermissions: permissions };
      const [row] = await tx.update(users).set(after).where(eq(users.id, userId)).returning(adminUserColumns);
      if (!row) throw notFound('User not found');
      await tx.insert(auditLog).values({
        actorUserId: actor.userId,
        action: actions[kind],
        entityType: 'user',
        entityId: userId,
        details: {
          before: { role: before.role, adminPermissions: before.adminPermissions },
          after: { role: row.role, adminPermissions: row.adminPermissions },
        },
        ip: actor.ip,
      });
      return { message: messages[kind], user: toAdminUser(row) };
    });
    events.publish({ type: 'user_updated', data: { collection: 'users', id: userId, user: result.user } });
    return result;
  }

  return {
    promote: (actor: Actor, userId: string, permissions: AdminPermissions) =>
      change('promote', actor, userId, permissions),
    remove: (actor: Actor, userId: string) => change('remove', actor, userId),
    updatePermissions: (actor: Actor, userId: string, permissions: AdminPermissions) =>
      change('update', actor, userId, permissions),
  };
}

export type AdminManagementService = ReturnType<typeof createAdminManagementService>;
