/**
 * A fresh Idempotency-Key for one user action (ADR 0047): the server answers a repeat of the same request with the
 * same key with its first result, so a retried POST never bids, pays or posts twice. crypto.randomUUID needs a secure
 * context, so plain-http origins (a LAN dev server) fall back to getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The header of one user action's write (see newIdempotencyKey). */
export function idempotencyHeaders(key: string = newIdempotencyKey()): Record<string, string> {
  return { 'Idempotency-Key': key };
}
