import { AppError } from '@market/server-kit';
import type { AuditLogEntry } from '@market/contracts';
import type { AuditLogRow } from './audit-log.repository';

/** The cursor of the page after `row`: where it stands in (at, id) order, as opaque text. */
export function cursorAfter(row: AuditLogRow): string {
  return Buffer.from(JSON.stringify([row.at_key, row.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A timestamptz as PostgreSQL writes it (`2026-11-25 10:00:00.123456+00`). */
const STORED_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/** Reads a cursor back; one that was not made here is a 422 naming it. */
export function readCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && STORED_TIME.test(at) && typeof id === 'string' && UUID.test(id)) return { at, id };
  } catch {
    // Falls through to the refusal.
  }
  throw new AppError('validation_failed', [{ loc: ['query', 'cursor'], msg: 'Not a cursor this list handed out', type: 'cursor' }]);
}

/** One row as the audit page shows it, with the usernames known now (null when the auth service did not say). */
export function presentEntry(row: AuditLogRow, usernames: Map<string, string>): AuditLogEntry {
  const name = (id: string | null) => (id ? (usernames.get(id) ?? null) : null);
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    action: row.action,
    admin_id: row.admin_id,
    admin_username: name(row.admin_id),
    impersonator_id: row.impersonator_id,
    impersonator_username: name(row.impersonator_id),
    target_type: row.target_type,
    target_id: row.target_id,
    // A user is shown by their current username (a deleted one's is scrubbed, D17); others by what they were called.
    target_label: row.target_label ?? (row.target_type === 'user' ? name(row.target_id) : null),
    before: row.before,
    after: row.after,
    changed_secrets: row.changed_secrets,
    request: row.method && row.route ? { method: row.method, route: row.route } : null,
  };
}
