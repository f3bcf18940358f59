import type { NatsConnection } from 'nats';
import type { AccountState } from '@market/contracts';
import { IdentityCache } from './identity-cache';

const active: AccountState = { token_version: 1, status: 'active', role: 'regular', email_verified: true };

/** A connection that only records the subscription's callback, so a test can deliver notices by hand. */
function fakeConnection() {
  let deliver: ((error: Error | null, msg: { data: Uint8Array }) => void) | null = null;
  const nc = {
    subscribe: (_subject: string, options: { callback: typeof deliver }) => {
      deliver = options.callback;
      return { unsubscribe: () => (deliver = null) };
    },
    flush: async () => undefined,
    status: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }) }),
  };
  const notice = (text: string) => deliver?.(null, { data: new TextEncoder().encode(text) });
  return { nc: nc as unknown as NatsConnection, notice };
}

async function hearingCache(now = () => 1_000) {
  const cache = new IdentityCache(5_000, now);
  const { nc, notice } = fakeConnection();
  await cache.listen(nc, 'stack.');
  return { cache, notice };
}

describe('IdentityCache (ADR 0057)', () => {
  it('keeps nothing before it hears notices', () => {
    const cache = new IdentityCache();
    cache.keep(cache.mark(), 'u1', active, 's1', true);
    expect(cache.get('u1', 's1')).toBeNull();
  });

  it('answers a kept account and session until the time to live ends', async () => {
    let clock = 1_000;
    const { cache } = await hearingCache(() => clock);
    cache.keep(cache.mark(), 'u1', active, 's1', true);
    expect(cache.get('u1', 's1')).toEqual({ account: active, sessionLive: true, refreshDue: false });
    expect(cache.get('u1', null)).toEqual({ account: active, sessionLive: true, refreshDue: false });
    // Another session of the same account was never asked about.
    expect(cache.get('u1', 's2')).toBeNull();
    // Near its end a state is still answered, marked for renewal off the request path.
    clock += 4_000;
    expect(cache.get('u1', 's1')).toEqual({ account: active, sessionLive: true, refreshDue: true });
    clock += 1_000;
    expect(cache.get('u1', 's1')).toBeNull();
  });

  it('drops what a notice names, and everything for an unreadable notice', async () => {
    const { cache, notice } = await hearingCache();
    cache.keep(cache.mark(), 'u1', active, 's1', true);
    cache.keep(cache.mark(), 'u2', active, 's2', true);
    notice(JSON.stringify({ sessions: ['s1'] }));
    expect(cache.get('u1', 's1')).toBeNull();
    expect(cache.get('u2', 's2')).not.toBeNull();
    notice(JSON.stringify({ users: ['u2'] }));
    expect(cache.get('u2', 's2')).toBeNull();
    cache.keep(cache.mark(), 'u3', active, null, true);
    notice('not json');
    expect(cache.size).toBe(0);
  });

  it('never keeps an answer asked for before the latest notice (it may predate the change)', async () => {
    const { cache, notice } = await hearingCache();
    const mark = cache.mark();
    notice(JSON.stringify({ users: ['someone-else'] }));
    cache.keep(mark, 'u1', active, 's1', true);
    expect(cache.get('u1', 's1')).toBeNull();
  });

  it('forgets everything and keeps nothing once closed', async () => {
    const { cache } = await hearingCache();
    cache.keep(cache.mark(), 'u1', active, 's1', true);
    cache.close();
    expect(cache.size).toBe(0);
    cache.keep(cache.mark(), 'u1', active, 's1', true);
    expect(cache.get('u1', 's1')).toBeNull();
  });
});
