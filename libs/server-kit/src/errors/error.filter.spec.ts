import { HttpException, Logger, NotFoundException } from '@nestjs/common';
import { AppError, conflict, rateLimited, unavailable } from './app-error';
import { toErrorPayload } from './error.filter';

describe('toErrorPayload', () => {
  const logger = new Logger('test');
  beforeEach(() => jest.spyOn(logger, 'error').mockImplementation(() => undefined));

  it('keeps typed errors with their status and detail', () => {
    expect(toErrorPayload(conflict('Username is already taken'), logger)).toEqual({
      code: 'conflict',
      status: 409,
      detail: 'Username is already taken',
    });
    const issues = [{ loc: ['body', 'email'], msg: 'bad', type: 'custom' }];
    expect(toErrorPayload(new AppError('validation_failed', issues), logger)).toMatchObject({ status: 422, detail: issues });
  });

  it('carries a retry-after across NATS: the payload keeps it and the gateway side rebuilds it (ADR 0058)', () => {
    const payload = toErrorPayload(unavailable('Too many bids on this listing right now', 1), logger);
    expect(payload).toEqual({ code: 'unavailable', status: 503, detail: 'Too many bids on this listing right now', retry_after: 1 });
    const rebuilt = AppError.fromPayload(JSON.parse(JSON.stringify(payload)));
    expect(rebuilt.retryAfter).toBe(1);
    expect(toErrorPayload(rebuilt, logger)).toEqual(payload);
    expect(toErrorPayload(unavailable(), logger)).not.toHaveProperty('retry_after');
  });

  it('carries a quota across NATS with a 429, and drops a malformed one or one on another status (ADR 0064)', () => {
    const state = { policy: 'domain-checks', quota: 20, window_seconds: 3600, unit: 'requests' as const, remaining: 3, reset_seconds: 1200 };
    const payload = toErrorPayload(rateLimited('Checked a moment ago', state), logger);
    // Refused means nothing is left, whatever the caller passed; Retry-After is the reset.
    expect(payload).toEqual({ code: 'rate_limited', status: 429, detail: 'Checked a moment ago', retry_after: 1200, rate_limit: { ...state, remaining: 0 } });
    expect(AppError.fromPayload(JSON.parse(JSON.stringify(payload))).rateLimit).toEqual({ ...state, remaining: 0 });
    expect(AppError.fromPayload({ ...payload, rate_limit: { ...state, policy: 'x\r\nSet-Cookie: a=b' } }).rateLimit).toBeUndefined();
    expect(AppError.fromPayload({ ...payload, rate_limit: { ...state, quota: 1.5 } }).rateLimit).toBeUndefined();
    expect(AppError.fromPayload({ ...payload, rate_limit: { ...state, reset_seconds: 1e21 } }).rateLimit).toBeUndefined();
    expect(AppError.fromPayload({ ...payload, retry_after: 1e21 }).retryAfter).toBeUndefined();
    expect(AppError.fromPayload({ ...payload, code: 'conflict', status: 409 }).rateLimit).toBeUndefined();
    // A quota that resets at once still says to wait a second.
    expect(rateLimited('x', { ...state, reset_seconds: 0 }).retryAfter).toBe(1);
  });

  it('maps Nest HTTP exceptions to their status', () => {
    expect(toErrorPayload(new NotFoundException('Cannot GET /api/x'), logger)).toMatchObject({ status: 404, detail: 'Cannot GET /api/x' });
  });

  it('hides the message of every unexpected or 5xx error', () => {
    expect(toErrorPayload(new Error('password=hunter2 at db.ts:12'), logger)).toEqual({ code: 'internal', status: 500, detail: 'Internal server error' });
    expect(toErrorPayload(new HttpException('secret internals', 500), logger).detail).toBe('Internal server error');
    expect(toErrorPayload('a thrown string', logger).status).toBe(500);
  });
});
