import { count, desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '#common/contracts/admin/audit.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { auditLog } from './audit.tables.ts';

/** Reading the audit log (the features write their records in their own transactions). */
export function createAuditService({ db }: { db: Db }) {
  async function list({ page, limit }: { page: number; limit: number }) {
    const [rows, [total]] = await Promise.all([
      db
        .select({ entry: auditLog, actorUsername: users.username })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .orderBy(desc(auditLog.id))
        .limit(limit)
        .offset((page - 1) * limit),
      db.select({ value: count() }).from(auditLog),
    ]);
    return {
      entries: rows.map(
        ({ entry, actorUsername }): AuditEntry => ({
          id: entry.id,
          actor: entry.actorUserId && actorUsername ? { id: entry.actorUserId, username: actorUsername } : null,
          action: entry.action,
          entityType: entry.entityType,
          entityId: entry.entityId,
          details: entry.details,
          ip: entry.ip,
          createdAt: entry.createdAt.toISOString(),
        }),
      ),
      pagination: paginationOf(page, limit, total?.value ?? 0),
    };
  }

  return { list };
}

export type AuditService = ReturnType<typeof createAuditService>;
