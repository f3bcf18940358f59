/** A value an audit entry keeps for a changed field: scalars only, so an entry reads the same wherever it is shown. */
export type AuditValue = string | number | boolean | null;
export type AuditValues = Record<string, AuditValue>;

/** What an admin act changed: the changed fields' values before and after, and the names of changed secrets. */
export interface AuditDiff {
  before: AuditValues;
  after: AuditValues;
  /** Secret fields (an SMTP password) that changed: only their names are kept, never a value. */
  changed_secrets: string[];
}

const SECRET_KEY = /pass(word|phrase)|secret|token|api_?key|credential/i;

/** True for a field name that holds a secret (password, token, key): its value never enters the audit log. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A field's value as the audit log keeps it: dates as ISO text, other objects as JSON text, undefined as null. */
function auditValue(value: unknown): AuditValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value) ?? String(value);
}

/** A record's own field (never one inherited from Object.prototype, such as `valueOf`). */
function own(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/**
 * The fields that differ between two versions of a record (admin audit, ADR 0032): each changed field's old and new
 * value, and for a secret field (isSecretKey) only its name in changed_secrets, never a value, before or after.
 */
export function auditDiff(before: Record<string, unknown>, after: Record<string, unknown>): AuditDiff {
  const old: Array<[string, AuditValue]> = [];
  const now: Array<[string, AuditValue]> = [];
  const changedSecrets: string[] = [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const key of keys) {
    const was = auditValue(own(before, key));
    const is = auditValue(own(after, key));
    if (Object.is(was, is)) continue;
    if (isSecretKey(key)) {
      changedSecrets.push(key);
      continue;
    }
    old.push([key, was]);
    now.push([key, is]);
  }
  // fromEntries makes own properties even of names such as __proto__.
  return { before: Object.fromEntries(old), after: Object.fromEntries(now), changed_secrets: changedSecrets };
}

/** The given fields of a record as the audit log keeps them; a secret field is refused outright (a programming error). */
export function auditSnapshot(record: object, fields: readonly string[]): AuditValues {
  for (const field of fields) if (isSecretKey(field)) throw new Error(`${field} is a secret and never enters the audit log`);
  return Object.fromEntries(fields.map((field) => [field, auditValue(own(record, field))]));
}

/** True when an act changed nothing worth recording. */
export function isEmptyDiff(diff: AuditDiff): boolean {
  return Object.keys(diff.after).length === 0 && diff.changed_secrets.length === 0;
}
