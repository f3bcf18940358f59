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

// A write's key waits here until the server has answered it for good, so pressing the button again after a timeout,
// a dropped connection or a 5xx repeats the same request under the same key (ADR 0047): the server then answers the
// first result instead of bidding, paying or posting twice. A changed request (another amount) gets a new key.
const RETRY_WINDOW_MS = 10 * 60 * 1000;
const unanswered = new Map<string, { key: string; at: number }>();

/** The Idempotency-Key header of a write to `scope` with this body: the unanswered one for the same request, else new. */
export function retryableKeyHeaders(scope: string, body: unknown = null): Record<string, string> {
  const now = Date.now();
  for (const [request, entry] of unanswered) if (now - entry.at > RETRY_WINDOW_MS) unanswered.delete(request);
  const request = `${scope} ${JSON.stringify(body)}`;
  const entry = unanswered.get(request) ?? { key: newIdempotencyKey(), at: now };
  unanswered.set(request, entry);
  return idempotencyHeaders(entry.key);
}

/**
 * Told every answer to a keyed write: a 2xx or a final 4xx settles its key (the next action gets a new one); no answer,
 * a 5xx or a 409 "still being processed" keeps it for the retry.
 */
export function settleIdempotencyKey(key: string, status: number | string | undefined): void {
  const final = typeof status === 'number' && status < 500 && status !== 409;
  if (!final) return;
  for (const [request, entry] of unanswered) if (entry.key === key) unanswered.delete(request);
}
