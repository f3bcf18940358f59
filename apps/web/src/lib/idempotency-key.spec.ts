import { idempotencyHeaders, newIdempotencyKey } from './idempotency-key';

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
