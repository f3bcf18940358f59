import { AppError } from '@market/server-kit';
import { isUuid, type AuditLogEntry } from '@market/contracts';
import type { AuditLogRow } from './audit-log.repository';

/** The cursor of the page after `row`: where it stands in (at, id) order, as opaque text. */
export function cursorAfter(row: AuditLogRow): string {
  return Buffer.from(JSON.stringify([row.at_key, row.id])).toString('base64url');
}

/** A timestamptz as PostgreSQL writes it (`2026-11-25 10:00:00.123456+00`), in parts. */
const STORED_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?(?::(\d{2}))?$/;
// PostgreSQL's time zone offsets stop at 15:59:59.
const MAX_OFFSET_HOURS = 15;

/**
 * True for a time PostgreSQL wrote and can read back: the shape, and a date and time that exist. The date and time
 * must come back unchanged through Date (no 2026-02-30, no 25:00, no year 0), so the `::timestamptz` cast of a cursor
 * can never fail (ADR 0032).
 */
export function isStoredTime(text: string): boolean {
  const parts = STORED_TIME.exec(text);
  if (!parts) return false;
  const [, date, time, offsetHours, offsetMinutes = '00', offsetSeconds = '00'] = parts;
  const utc = `${date}T${time}.000Z`;
  const read = new Date(utc);
  if (Number.isNaN(read.getTime()) || read.toISOString() !== utc || date.startsWith('0000')) return false;
  return Number(offsetHours) <= MAX_OFFSET_HOURS && Number(offsetMinutes) < 60 && Number(offsetSeconds) < 60;
}

/** Reads a cursor back; one that was not made here (or names a time that does not exist) is a 422 naming it. */
export function readCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && isStoredTime(at) && typeof id === 'string' && isUuid(id)) return { at, id };
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
