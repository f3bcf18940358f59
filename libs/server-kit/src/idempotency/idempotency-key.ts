import { createHash } from 'node:crypto';

/** What an Idempotency-Key may look like (ADR 0047): a UUID or similar opaque token, nothing a log could choke on. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/** The one detail a malformed key gets. */
export const IDEMPOTENCY_KEY_RULE = 'Idempotency-Key must be 8 to 128 characters of letters, digits, "-", "_", "." or ":"';

/** True when a key is well formed. */
export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}

/** JSON with object keys sorted, so two equal requests hash alike whatever their key order. */
function stableJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** A request's fingerprint: what a retry with the same key must match. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}
