import * as z from 'zod/mini';
import { Pagination } from '../pagination.ts';
import { AdminPageQuery } from './users.ts';

/** One recorded admin action (issue 11: who, what, target, before and after, when, from where). */
export const AuditEntry = z.object({
  id: z.int(),
  /** The admin who acted; null when the account is gone. */
  actor: z.nullable(z.object({ id: z.string(), username: z.string() })),
  action: z.string(),
  entityType: z.string(),
  entityId: z.nullable(z.string()),
  details: z.record(z.string(), z.unknown()),
  ip: z.nullable(z.string()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** The audit log, newest first, a page at a time (owner only). */
export const listAuditLog = {
  method: 'GET',
  path: '/api/admin/audit-log',
  query: AdminPageQuery,
  response: z.object({ entries: z.array(AuditEntry), pagination: Pagination }),
} as const;
