import { parseEnvOrThrow } from '@market/server-kit';
import { gatewayEnv } from '../gateway.config';
import { UploadSlots } from './upload-slots';

const limitsEnv = { UPLOADS_MAX_CONCURRENT: gatewayEnv.UPLOADS_MAX_CONCURRENT, UPLOADS_MAX_PER_USER: gatewayEnv.UPLOADS_MAX_PER_USER };
const slots = (total: number, perUser: number) => new UploadSlots({ UPLOADS_MAX_CONCURRENT: total, UPLOADS_MAX_PER_USER: perUser });

describe('upload limits configuration', () => {
  it('defaults to 8 uploads per gateway and 4 per user', () => {
    expect(parseEnvOrThrow(limitsEnv, {})).toEqual({ UPLOADS_MAX_CONCURRENT: 8, UPLOADS_MAX_PER_USER: 4 });
  });

  it.each([
    [{ UPLOADS_MAX_CONCURRENT: '0' }, /^Invalid configuration: UPLOADS_MAX_CONCURRENT: /],
    [{ UPLOADS_MAX_CONCURRENT: 'many' }, /^Invalid configuration: UPLOADS_MAX_CONCURRENT: /],
    [{ UPLOADS_MAX_PER_USER: '1.5' }, /^Invalid configuration: UPLOADS_MAX_PER_USER: /],
  ])('refuses %j naming the variable', (env, message) => {
    expect(() => parseEnvOrThrow(limitsEnv, env)).toThrow(message);
  });
});

describe('UploadSlots', () => {
  it('gives each uploader at most its share and says which limit is full', () => {
    const limits = slots(3, 2);
    const a1 = limits.tryAcquire('user:a');
    const a2 = limits.tryAcquire('user:a');
    expect([a1.ok, a2.ok]).toEqual([true, true]);
    expect(limits.tryAcquire('user:a')).toEqual({ ok: false, reason: 'uploader' });
    expect(limits.tryAcquire('user:b').ok).toBe(true);
    expect(limits.tryAcquire('user:c')).toEqual({ ok: false, reason: 'gateway' });
    expect(limits.inUse()).toBe(3);
  });

  it('frees a slot once, however often it is released', () => {
    const limits = slots(2, 2);
    const first = limits.tryAcquire('user:a');
    if (!first.ok) throw new Error('expected a slot');
    first.release();
    first.release();
    expect(limits.inUse()).toBe(0);
    expect([limits.tryAcquire('user:a').ok, limits.tryAcquire('user:a').ok, limits.tryAcquire('user:b').ok]).toEqual([true, true, false]);
  });
});
