import { bearer, call, get, post, signUp, startStack, type Stack } from '../support/start-stack';

const ADMIN = { email: 'boss@example.com', password: 'boss-admin-pass-1' };

describe('logging out ends a token at once, on every gateway and every service (ADR 0030)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'bidding'], gateways: 2, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses the logged-out token through the other gateway and in another service, and leaves other sessions alone', async () => {
    const [first, second] = stack.urls;
    const user = await signUp(first);
    const other = await post(`${first}/api/auth/login`, { login: user.username, password: user.password });
    expect(other.status).toBe(200);
    // Both gateways accept it and pass it to bidding-service, which verifies it itself.
    for (const url of stack.urls) expect((await get(`${url}/api/user/bids`, bearer(user.token))).status).toBe(200);

    const loggedOut = await post(`${first}/api/auth/logout`, undefined, bearer(user.token));
    expect(loggedOut.status).toBe(200);
    expect(loggedOut.body).toEqual({ message: 'You have been logged out.' });

    for (const path of ['/api/auth/me', '/api/user/bids']) {
      const refused = await get(`${second}${path}`, bearer(user.token));
      expect([path, refused.status, refused.body]).toEqual([path, 401, expect.objectContaining({ code: 'unauthorized', detail: 'Your session has ended. Please log in again.' })]);
    }
    // The session on the other device still stands.
    expect((await get(`${second}/api/auth/me`, bearer(other.body.access_token))).status).toBe(200);
    // Logging out twice with the dead token is a 401, not a 5xx.
    expect((await post(`${second}/api/auth/logout`, undefined, bearer(user.token))).status).toBe(401);
  });

  // Each process keeps account states in memory for a few seconds; auth-service's identity.changed notice is on the
  // server before the change is answered, so the other gateway and bidding-service drop them first (ADR 0057).
  it('ends a suspended member\'s token at once on a gateway and a service that kept their state in memory', async () => {
    const [first, second] = stack.urls;
    const admin = await post(`${first}/api/auth/login`, { login: ADMIN.email, password: ADMIN.password });
    const member = await signUp(first);
    for (let i = 0; i < 5; i++) expect((await get(`${second}/api/user/bids`, bearer(member.token))).status).toBe(200);

    const suspended = await call('PATCH', `${first}/api/admin/users/${member.id}`, { status: 'suspended' }, bearer(admin.body.access_token));
    expect(suspended.status).toBe(200);
    for (const path of ['/api/auth/me', '/api/user/bids']) {
      const refused = await get(`${second}${path}`, bearer(member.token));
      expect([path, refused.status, refused.body]).toEqual([path, 401, expect.objectContaining({ code: 'unauthorized', detail: 'Your session has ended. Please log in again.' })]);
    }
  });
});
