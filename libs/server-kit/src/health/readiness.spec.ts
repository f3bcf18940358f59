import { runReadiness, waitUntilReady, type ReadinessCheck } from './readiness';

const up = (name: string, optional = false): ReadinessCheck => ({ name, optional, check: async () => undefined });
const down = (name: string, optional = false): ReadinessCheck => ({ name, optional, check: async () => Promise.reject(new Error('refused')) });

describe('runReadiness', () => {
  it('is ready and not degraded when everything answers', async () => {
    expect(await runReadiness([up('postgres'), up('redis', true)])).toEqual({ ready: true, degraded: false, checks: { postgres: 'up', redis: 'up' } });
  });

  it('stays ready, degraded, when only an optional dependency is down', async () => {
    expect(await runReadiness([up('postgres'), down('redis', true)])).toEqual({ ready: true, degraded: true, checks: { postgres: 'up', redis: 'down: refused' } });
  });

  it('is not ready when a required dependency is down', async () => {
    expect((await runReadiness([down('postgres'), up('redis', true)])).ready).toBe(false);
  });
});

describe('waitUntilReady', () => {
  it('waits until the required checks answer, telling why once per reason', async () => {
    let attempts = 0;
    const flaky: ReadinessCheck = { name: 'nats', check: async () => (++attempts < 3 ? Promise.reject(new Error('no route')) : undefined) };
    const heard: string[] = [];
    await waitUntilReady([flaky, down('redis', true)], (why) => heard.push(why), 1);
    expect(attempts).toBe(3);
    expect(heard).toEqual(['nats down: no route; redis down: refused']);
  });
});
