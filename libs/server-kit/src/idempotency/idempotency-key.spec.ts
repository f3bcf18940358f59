import { isIdempotencyKey, requestFingerprint } from './idempotency-key';

describe('Idempotency-Key checks and request fingerprints (ADR 0047)', () => {
  it('accepts UUIDs and similar tokens, nothing else', () => {
    for (const good of ['3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'abcdefgh', 'a.b:c_d-e', 'x'.repeat(128)]) expect(isIdempotencyKey(good)).toBe(true);
    for (const bad of ['short', 'x'.repeat(129), 'has space', 'new\nline', 'ünïcode-key', '', 42, null, undefined]) expect(isIdempotencyKey(bad)).toBe(false);
  });

  it('hashes equal requests alike whatever their key order, and different ones differently', () => {
    expect(requestFingerprint({ a: 1, b: { c: [1, 2], d: null } })).toBe(requestFingerprint({ b: { d: null, c: [1, 2] }, a: 1 }));
    expect(requestFingerprint({ a: 1, gone: undefined })).toBe(requestFingerprint({ a: 1 }));
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: 2 }));
    expect(requestFingerprint({ list: [1, 2] })).not.toBe(requestFingerprint({ list: [2, 1] }));
    expect(requestFingerprint({ a: '1' })).not.toBe(requestFingerprint({ a: 1 }));
    expect(requestFingerprint(undefined)).toBe(requestFingerprint(null));
  });
});
