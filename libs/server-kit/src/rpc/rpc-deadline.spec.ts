import { callMeta } from './rpc-call-meta';
import { currentDeadline, deadlineOf, expiredRequest, runWithDeadline, throwIfCallerGone } from './rpc-deadline';
import { AppError } from '../errors/app-error';

describe('caller deadlines (ADR 0047)', () => {
  it('reads only a sane deadline from the envelope meta', () => {
    expect(deadlineOf({ deadline: 1_800_000_000_000 })).toBe(1_800_000_000_000);
    for (const meta of [undefined, null, {}, { deadline: '1800000000000' }, { deadline: Number.NaN }, { deadline: -5 }, { deadline: 0 }]) {
      expect(deadlineOf(meta)).toBeNull();
    }
  });

  it('refuses a request only once its deadline has passed, as a typed 503', () => {
    expect(expiredRequest('listings.create', null, 2000)).toBeNull();
    expect(expiredRequest('listings.create', 2000, 2000)).toBeNull();
    const refused = expiredRequest('listings.create', 2000, 2001);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, code: 'unavailable' });
  });

  it('lets a long handler stop once its caller is gone', () => {
    expect(() => runWithDeadline(Date.now() + 60_000, () => throwIfCallerGone('x'))).not.toThrow();
    expect(() => runWithDeadline(Date.now() - 1, () => throwIfCallerGone('x'))).toThrow(AppError);
    expect(() => throwIfCallerGone('outside any request')).not.toThrow();
  });

  it('sends its own deadline, or the earlier one of the caller it works for', () => {
    const before = Date.now();
    const own = callMeta(5000, {}).deadline!;
    expect(own).toBeGreaterThanOrEqual(before + 5000);
    expect(own).toBeLessThanOrEqual(Date.now() + 5000);
    const callers = Date.now() + 1000;
    expect(runWithDeadline(callers, () => callMeta(5000, {}).deadline)).toBe(callers);
    const later = Date.now() + 60_000;
    expect(runWithDeadline(later, () => callMeta(5000, {}).deadline)).toBeLessThan(later);
    expect(runWithDeadline(null, () => currentDeadline())).toBeNull();
  });

  it('adds the Idempotency-Key and fingerprint only when given', () => {
    expect(callMeta(1000, {})).not.toHaveProperty('idempotency_key');
    expect(callMeta(1000, { idempotency: null })).not.toHaveProperty('idempotency_key');
    expect(callMeta(1000, { idempotency: { key: 'k-12345678' } })).toMatchObject({ idempotency_key: 'k-12345678' });
    expect(callMeta(1000, { idempotency: { key: 'k-12345678' } })).not.toHaveProperty('idempotency_fingerprint');
    expect(callMeta(1000, { idempotency: { key: 'k-12345678', fingerprint: 'abc' } })).toMatchObject({ idempotency_fingerprint: 'abc' });
  });
});
