import { bearer, get, post, signUp, startStack, type Stack } from '../support/start-stack';

describe('logging out ends a token at once, on every gateway and every service (ADR 0030)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'bidding'], gateways: 2 });
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
      expect([path, refused.status, refused.body]).toEqual([path, 401, { detail: 'Your session has ended. Please log in again.' }]);
    }
    // The session on the other device still stands.
    expect((await get(`${second}/api/auth/me`, bearer(other.body.access_token))).status).toBe(200);
    // Logging out twice with the dead token is a 401, not a 5xx.
    expect((await post(`${second}/api/auth/logout`, undefined, bearer(user.token))).status).toBe(401);
  });
});
