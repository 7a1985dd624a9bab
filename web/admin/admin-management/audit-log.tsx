import type { AuditEntry, listAuditLog } from '#common/contracts/admin/audit.ts';
import { formatDateTime } from '../ui/format.ts';
import { AdminTable, ListFooter, listStatus, PlainHeaders, tableStyles } from '../ui/list-controls.tsx';
import { useAdminList } from '../ui/use-admin-list.ts';

const path: (typeof listAuditLog)['path'] = '/api/admin/audit-log';
const idOf = (entry: AuditEntry) => String(entry.id);
const noParams = {};

/** What changed, as `field: before → after` (secrets arrive masked from the server). */
function describeChanges(details: Record<string, unknown>): string {
  const before = (details.before ?? {}) as Record<string, unknown>;
  const after = (details.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) {
    return Object.entries(details)
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
      .join(', ');
  }
  return fields
    .map((field) => `${field}: ${JSON.stringify(before[field])} → ${JSON.stringify(after[field])}`)
    .join('; ');
}

/** The audit log (owner only): who did what to which record, the changes, when and from where. */
export function AuditLog() {
  const list = useAdminList<AuditEntry>({
    collection: 'audit',
    path,
    itemsKey: 'entries',
    params: noParams,
    idOf,
    infiniteScroll: false,
  });
  return (
    <section aria-labelledby="audit-heading" className="mt-10">
      <h2 id="audit-heading" className="font-serif text-2xl text-sage-900">
        Audit log
      </h2>
      <p className="mt-1 text-sm text-stone-600">Every change made in the back office, newest first.</p>
      <div className="mt-4">
        <AdminTable
          caption="Audit log"
          columns={6}
          status={listStatus(list, {
            loading: 'Loading the audit log…',
            failed: 'Failed to load the audit log',
            empty: 'Nothing recorded yet.',
          })}
          headers={<PlainHeaders names={['When', 'Who', 'Action', 'Record', 'Changes', 'From']} />}
        >
          {list.rows.map((entry) => (
            <tr key={entry.id}>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDateTime(entry.createdAt)}</td>
              <td className={tableStyles.cell}>{entry.actor?.username ?? '(deleted account)'}</td>
              <td className={`${tableStyles.cell} font-mono text-xs`}>{entry.action}</td>
              <td className={tableStyles.cell}>
                {entry.entityType}
                {entry.entityId ? <span className="block font-mono text-xs">{entry.entityId}</span> : null}
              </td>
              <td className={`${tableStyles.cell} max-w-md break-words text-xs`}>{describeChanges(entry.details)}</td>
              <td className={`${tableStyles.cell} font-mono text-xs`}>{entry.ip ?? '—'}</td>
            </tr>
          ))}
        </AdminTable>
      </div>
      <ListFooter list={list} />
    </section>
  );
}
