import { idempotencyHeaders, newIdempotencyKey, retryableKeyHeaders, settleIdempotencyKey } from './idempotency-key';

describe('Idempotency-Key per user action', () => {
  it('makes a new key each time, in the form the server accepts', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
  });

  it('falls back to random bytes where randomUUID is missing (plain http)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const [a, b] = [newIdempotencyKey(), newIdempotencyKey()];
      expect(a).toMatch(/^[0-9a-f]{32}$/);
      expect(a).not.toBe(b);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('sends the key it is given', () => {
    expect(idempotencyHeaders('k-12345678')).toEqual({ 'Idempotency-Key': 'k-12345678' });
  });
});

describe('a write retried after no final answer', () => {
  const keyOf = (headers: Record<string, string>) => headers['Idempotency-Key'];

  it('keeps the key of the same request until it is answered for good, then makes a new one', () => {
    const first = keyOf(retryableKeyHeaders('/bids', { listing_id: 'l1', amount: 100 }));
    // No answer (network), a 5xx and a 409 "still being processed": the retry sends the same key.
    settleIdempotencyKey(first, 'FETCH_ERROR');
    settleIdempotencyKey(first, 503);
    settleIdempotencyKey(first, 409);
    expect(keyOf(retryableKeyHeaders('/bids', { listing_id: 'l1', amount: 100 }))).toBe(first);
    settleIdempotencyKey(first, 201);
    expect(keyOf(retryableKeyHeaders('/bids', { listing_id: 'l1', amount: 100 }))).not.toBe(first);
  });

  it('gives another request (another amount, another place) its own key, and settles on a final refusal', () => {
    const a = keyOf(retryableKeyHeaders('/bids', { listing_id: 'l2', amount: 100 }));
    const b = keyOf(retryableKeyHeaders('/bids', { listing_id: 'l2', amount: 150 }));
    const c = keyOf(retryableKeyHeaders('/messages', { listing_id: 'l2', amount: 100 }));
    expect(new Set([a, b, c]).size).toBe(3);
    settleIdempotencyKey(a, 400);
    expect(keyOf(retryableKeyHeaders('/bids', { listing_id: 'l2', amount: 100 }))).not.toBe(a);
  });
});
