import { post, signUp, startStack, type Stack } from '../support/start-stack';

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
    const left: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await post(`${stack.urls[i % 2]}/api/auth/login`, { login, password: 'guess-number-' + i });
      statuses.push(response.status);
      left.push(response.headers.get('ratelimit') ?? '');
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    // Each answer says what is left of the address's quota (ADR 0064), never the account's: that would tell anyone
    // whether someone else has been trying this login lately.
    expect(left[0]).toMatch(/^"login-address";r=\d+;t=\d+$/);
    expect(Number(/r=(\d+)/.exec(left[0])![1]) - Number(/r=(\d+)/.exec(left[9])![1])).toBe(9);
    const blocked = await post(`${stack.urls[1]}/api/auth/login`, { login: login.toUpperCase(), password: 'one more guess' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(blocked.headers.get('ratelimit-policy')).toBe('"login-account";q=10;w=900');
    expect(blocked.headers.get('ratelimit')).toBe(`"login-account";r=0;t=${retryAfter}`);
    const onOther = await post(`${stack.urls[0]}/api/auth/login`, { login, password: 'and another' });
    expect(onOther.status).toBe(429);
    const someoneElse = await post(`${stack.urls[0]}/api/auth/login`, { login: `${login}_other`, password: 'unrelated' });
    expect(someoneElse.status).toBe(401);
  });

  it('counts one account once whether it is named by username or email', async () => {
    // signUp logged in once: with nine guesses, by either name, the account has had its ten attempts.
    const member = await signUp(stack.url);
    for (let i = 0; i < 9; i += 1) {
      const login = i % 2 === 0 ? member.username : member.email.toUpperCase();
      expect((await post(`${stack.urls[i % 2]}/api/auth/login`, { login, password: `wrong-guess-${i}` })).status).toBe(401);
    }
    // The eleventh, by either name and even with the right password, waits out the window.
    for (const login of [member.username, member.email]) {
      const blocked = await post(`${stack.urls[0]}/api/auth/login`, { login, password: member.password });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('ratelimit-policy')).toBe('"login-account";q=10;w=900');
    }
  });

  it('limits forgot-password per email', async () => {
    const email = `limited_${Date.now()}@example.com`;
    for (let i = 0; i < 3; i += 1) expect((await post(`${stack.urls[i % 2]}/api/auth/forgot-password`, { email })).status).toBe(200);
    const blocked = await post(`${stack.urls[0]}/api/auth/forgot-password`, { email });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
  });
});

describe('per-address limits behind two trusted proxies (TRUST_PROXY=2, ADR 0054)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth'], env: { TRUST_PROXY: '2' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  // This test stands in for the ingress (the socket's peer); 10.0.0.2 is the load balancer it names, and the entry
  // left of it is the client the load balancer saw. Anything further left the client wrote itself.
  const from = (client: string, spoofed: string) => ({ 'x-forwarded-for': `${spoofed}, ${client}, 10.0.0.2` });

  it('counts the client the load balancer saw, whatever it writes into X-Forwarded-For itself', async () => {
    const tag = Date.now();
    const ask = (i: number, client: string, spoofed: string) => post(`${stack.urls[0]}/api/auth/forgot-password`, { email: `addr_${tag}_${i}@example.com` }, from(client, spoofed));
    // Ten per address in 15 minutes, each with another spoofed address and another email (so only the address counts).
    for (let i = 0; i < 10; i += 1) expect((await ask(i, '203.0.113.7', `198.51.100.${i}`)).status).toBe(200);
    const blocked = await ask(10, '203.0.113.7', '198.51.100.99');
    expect(blocked.status).toBe(429);
    // Another client behind the same proxies is not blocked.
    expect((await ask(11, '203.0.113.8', '198.51.100.99')).status).toBe(200);
  });
});
