import { post, startStack, type Stack } from '../support/start-stack';

describe('rate limits held in Redis', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth'], gateways: 2 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('counts login attempts for one account across two gateway processes', async () => {
    const login = `victim_${Date.now()}`;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await post(`${stack.urls[i % 2]}/api/auth/login`, { login, password: 'guess-number-' + i });
      statuses.push(response.status);
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    const blocked = await post(`${stack.urls[1]}/api/auth/login`, { login: login.toUpperCase(), password: 'one more guess' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const onOther = await post(`${stack.urls[0]}/api/auth/login`, { login, password: 'and another' });
    expect(onOther.status).toBe(429);
    const someoneElse = await post(`${stack.urls[0]}/api/auth/login`, { login: `${login}_other`, password: 'unrelated' });
    expect(someoneElse.status).toBe(401);
  });

  it('limits forgot-password per email', async () => {
    const email = `limited_${Date.now()}@example.com`;
    for (let i = 0; i < 3; i += 1) expect((await post(`${stack.urls[i % 2]}/api/auth/forgot-password`, { email })).status).toBe(200);
    const blocked = await post(`${stack.urls[0]}/api/auth/forgot-password`, { email });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
  });
});
