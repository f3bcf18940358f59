import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { generateSigningKeys } from '@market/server-kit';
import { buildUser } from '@market/server-kit/testing';
import { get, post, signUp, startStack, type Stack } from '../support/start-stack';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('accounts through the gateway', () => {
  let stack: Stack;
  const api = (path: string) => `${stack.url}/api${path}`;

  beforeAll(async () => {
    stack = await startStack({ env: { ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'admin-pass-2026' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('registers, logs in by username or email in any case, and returns the current user', async () => {
    const user = buildUser({ username: 'Mixed_Case' + Date.now().toString(36).slice(-4) });
    const registered = await post(api('/auth/register'), user);
    expect(registered.status).toBe(201);
    expect(registered.body.message).toMatch(/log in/i);
    expect(registered.body.user).toMatchObject({ username: user.username, email: user.email, role: 'regular', verified: false, status: 'active' });
    expect(registered.body.user).not.toHaveProperty('password_hash');

    for (const login of [user.username.toUpperCase(), user.email.toUpperCase()]) {
      const loggedIn = await post(api('/auth/login'), { login, password: user.password });
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body.token_type).toBe('bearer');
      expect(loggedIn.body.user.id).toBe(registered.body.user.id);
      const me = await get(api('/auth/me'), { authorization: `Bearer ${loggedIn.body.access_token}` });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: registered.body.user.id, username: user.username });
    }
  });

  it('answers 409 with a detail for a taken username or email, whatever the case', async () => {
    const first = buildUser();
    expect((await post(api('/auth/register'), first)).status).toBe(201);

    const sameName = await post(api('/auth/register'), buildUser({ username: first.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ detail: 'Username is already taken' });

    const sameEmail = await post(api('/auth/register'), buildUser({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({ detail: 'An account with this email already exists' });
  });

  it('answers 422 detail lists for malformed bodies and stores nothing', async () => {
    const missing = await post(api('/auth/register'), { email: 'not-an-email', password: 'short' });
    expect(missing.status).toBe(422);
    const fields = missing.body.detail.map((issue: { loc: string[] }) => issue.loc.join('.'));
    expect(fields).toEqual(expect.arrayContaining(['body.username', 'body.email', 'body.password', 'body.age_confirmed']));
    for (const issue of missing.body.detail) {
      expect(typeof issue.msg).toBe('string');
      expect(typeof issue.type).toBe('string');
    }

    const notJson = await post(api('/auth/login'), '{"login": "a",');
    expect(notJson.status).toBe(422);
    expect(notJson.body.detail).toEqual([{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }]);

    const wrongTypes = await post(api('/auth/login'), { login: 42, password: ['x'] });
    expect(wrongTypes.status).toBe(422);
    expect(wrongTypes.body.detail.map((i: { loc: string[] }) => i.loc.join('.'))).toEqual(['body.login', 'body.password']);

    const notAnObject = await post(api('/auth/register'), '[1,2]');
    expect(notAnObject.status).toBe(422);

    const under18 = buildUser({ age_confirmed: false as true });
    const refused = await post(api('/auth/register'), under18);
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'age_confirmed'] });
    const login = await post(api('/auth/login'), { login: under18.username, password: under18.password });
    expect(login.status).toBe(401);
  });

  it('answers 401 for a wrong password without saying which part was wrong', async () => {
    const user = buildUser();
    await post(api('/auth/register'), user);
    const wrongPassword = await post(api('/auth/login'), { login: user.username, password: 'not the password' });
    const unknownUser = await post(api('/auth/login'), { login: `nobody_${Date.now()}`, password: user.password });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownUser.body);
    expect(wrongPassword.body.detail).not.toMatch(/password is wrong|no such user|not found/i);
  });

  it('refuses /auth/me without a token and with forged, wrong-algorithm, wrong-key, expired and unknown-session tokens', async () => {
    expect((await get(api('/auth/me'))).status).toBe(401);
    const user = await signUp(stack.url);
    const genuine = jwt.decode(user.token, { complete: true }) as unknown as { header: { kid: string }; payload: { sub: string; sid: string; ver: number } };
    const claims = { sid: genuine.payload.sid, ver: genuine.payload.ver };
    const rightKey = stack.env.JWT_PRIVATE_KEY;
    const otherKey = generateSigningKeys().JWT_PRIVATE_KEY;
    const attempts: Record<string, string> = {
      // An HS256 token "signed" with a public key: the classic algorithm-confusion forgery.
      'HS256 with the public key as secret': jwt.sign(claims, stack.env.JWT_PUBLIC_KEYS, { subject: user.id, algorithm: 'HS256', keyid: genuine.header.kid }),
      'unsigned (alg none)': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, sub: user.id, exp: Math.floor(Date.now() / 1000) + 600 })}.`,
      'signed with another key under the real kid': jwt.sign(claims, otherKey, { subject: user.id, algorithm: 'ES256', keyid: genuine.header.kid }),
      'expired': jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }, rightKey, { subject: user.id, algorithm: 'ES256', keyid: genuine.header.kid }),
      'for a session that does not exist': jwt.sign({ ...claims, sid: randomUUID() }, rightKey, { subject: user.id, algorithm: 'ES256', keyid: genuine.header.kid, expiresIn: 600 }),
      'garbage': 'not.a.token',
    };
    for (const [what, token] of Object.entries(attempts)) {
      const response = await get(api('/auth/me'), { authorization: `Bearer ${token}` });
      expect([what, response.status]).toEqual([what, 401]);
      expect(response.body.detail).toMatch(/Not authenticated|Your session has ended/);
    }
    expect((await get(api('/auth/me'), { authorization: `Bearer ${user.token}` })).status).toBe(200);
  });

  it('has the configured admin account after start', async () => {
    const admin = await post(api('/auth/login'), { login: 'ROOT@example.com', password: 'admin-pass-2026' });
    expect(admin.status).toBe(200);
    expect(admin.body.user).toMatchObject({ role: 'admin', email: 'root@example.com' });
  });

  it('answers JSON 404 for unknown API paths and serves health, OpenAPI and security headers', async () => {
    const unknown = await get(api('/no-such-thing'));
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');

    const ready = await get(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ nats: 'up', redis: 'up', storage: 'up' });

    const openapi = await get(api('/docs/openapi.json'));
    expect(openapi.status).toBe(200);
    // Paths are relative to the document's server, /api (the document is generated from the route declarations).
    expect(openapi.body.servers).toEqual([expect.objectContaining({ url: '/api' })]);
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/auth/register', '/auth/login', '/auth/me']));
    const register = openapi.body.paths['/auth/register'].post;
    // The body is a named schema (ADR 0079), referenced from the document's components.
    expect(register.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RegisterRequest' });
    expect(openapi.body.components.schemas.RegisterRequest.properties).toHaveProperty('username');
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['201', '409', '422', '429']));
    expect(openapi.body.paths['/auth/me'].get.security).toEqual([{ bearer: [] }]);

    expect(ready.headers.get('x-content-type-options')).toBe('nosniff');
    expect(ready.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(ready.headers.get('x-powered-by')).toBeNull();
  });

  it('echoes a sane X-Request-Id and replaces a hostile one', async () => {
    const kept = await get(`${stack.url}/healthz`, { 'x-request-id': 'trace-abc-123456' });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc-123456');
    const replaced = await get(`${stack.url}/healthz`, { 'x-request-id': 'bad id\twith spaces' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
