import { randomUUID } from 'node:crypto';
import { connect, JSONCodec } from 'nats';
import { RPC } from '@market/contracts';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { AppError, accountStateKey, openSessionState, parseEnvOrThrow, sealAccountState, sessionKey } from '@market/server-kit';
import { buildUser, callerWithToken, openedEvent, requestAs, startServiceUnderTest, testBusIdentity, type ServiceUnderTest } from '@market/server-kit/testing';
import { authEnv } from './auth.config';
import { authAppModule } from './app.module';

const ADMIN = { email: 'root@auth-it.example.com', password: 'root-admin-pass-2026' };

/** The typed error a call was refused with (status and detail), or a failure when it was answered. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; detail: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error('the call was answered, not refused');
}

describe('auth-service over NATS, on its own', () => {
  let auth: ServiceUnderTest;

  beforeAll(async () => {
    auth = await startServiceUnderTest('auth-service', (env) => {
      const config = parseEnvOrThrow(authEnv, env);
      return { module: authAppModule(config), config };
    }, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(async () => {
    await auth?.stop();
  });

  it('registers, logs in by username or email, and answers auth.me for the token holder', async () => {
    const user = buildUser();
    const registered = await auth.rpc.call(RPC.auth.register, user, null);
    expect(registered.user).toMatchObject({ username: user.username, email: user.email, role: 'regular', status: 'active', email_verified: false });
    const login = await auth.rpc.call(RPC.auth.login, { login: user.email.toUpperCase(), password: user.password, client: { address: '203.0.113.9', user_agent: 'it-test' } }, null);
    expect(login.token_type).toBe('bearer');
    const actor = callerWithToken(login.access_token);
    expect(await auth.rpc.call(RPC.auth.me, {}, actor)).toMatchObject({ id: registered.user.id, username: user.username });
    expect(await auth.rpc.call(RPC.auth.sessionState, { user_id: registered.user.id }, null)).toEqual({
      token_version: expect.any(Number),
      status: 'active',
      role: 'regular',
      email_verified: false,
      session_active: true,
      // The same state sealed for Redis, for the asking process to store (ADR 0065).
      sealed: { account: expect.stringContaining('"sig":') },
    });
    const { sessions } = await auth.rpc.call(RPC.auth.listSessions, {}, actor);
    expect(sessions).toEqual([expect.objectContaining({ device: 'it-test', address: '203.0.113.9', current: true })]);
  });

  it('refuses a taken username, a wrong password and an anonymous auth.me with their statuses', async () => {
    const user = buildUser();
    await auth.rpc.call(RPC.auth.register, user, null);
    expect(await refusal(auth.rpc.call(RPC.auth.register, { ...buildUser(), username: user.username.toUpperCase() }, null))).toMatchObject({ status: 409 });
    expect(await refusal(auth.rpc.call(RPC.auth.login, { login: user.username, password: 'not the password at all' }, null))).toMatchObject({ status: 401 });
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, null))).toMatchObject({ status: 401 });
  });

  it('parses every message with its subject schema: an unknown field or a bad value is a 422 that changes nothing', async () => {
    const user = buildUser();
    const extra = await refusal(auth.rpc.call(RPC.auth.register, { ...user, role: 'admin' } as never, null));
    expect(extra.status).toBe(422);
    const weak = await refusal(auth.rpc.call(RPC.auth.register, { ...user, password: 'short' }, null));
    expect(weak.status).toBe(422);
    expect(await refusal(auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null))).toMatchObject({ status: 401 });
  });

  it('refuses a message without the envelope shape, sent straight onto NATS', async () => {
    const nc = await connect({ servers: auth.env.NATS_URL });
    try {
      const codec = JSONCodec();
      // Nest's packet ({pattern, data, id}) around a payload that is not our envelope: no meta, no actor.
      const subject = `${auth.env.NATS_SUBJECT_PREFIX}${RPC.auth.register.subject}`;
      const packet = codec.encode({ pattern: subject, id: randomUUID(), data: { data: buildUser() } });
      // Signed by the gateway, so only its shape is wrong; unsigned, nothing of it is read (D25).
      const reply = await requestAs(nc, auth.env, 'gateway', subject, packet);
      expect(codec.decode(reply.data)).toMatchObject({ err: { status: 400, detail: 'Malformed request' } });
      const unsigned = await nc.request(subject, packet, { timeout: 5000 });
      expect(codec.decode(unsigned.data)).toMatchObject({ err: { status: 401, detail: 'The request was not believed: not sealed for auth-service by a process of the bus' } });
    } finally {
      await nc.close();
    }
  });

  it('keeps admin subjects for real admins: a regular actor and an impersonation are refused', async () => {
    const user = buildUser();
    const member = await auth.rpc.call(RPC.auth.register, user, null);
    const admin = await auth.rpc.call(RPC.auth.login, { login: ADMIN.email, password: ADMIN.password }, null);
    expect(admin.user.role).toBe('admin');
    const adminCaller = callerWithToken(admin.access_token);
    const regular = callerWithToken((await auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null)).access_token);
    const impersonating = callerWithToken((await auth.rpc.call(RPC.auth.impersonate, { id: member.user.id }, adminCaller)).impersonation_token);
    for (const actor of [regular, impersonating]) {
      expect(await refusal(auth.rpc.call(RPC.auth.updateUser, { id: member.user.id, changes: { status: 'suspended' } }, actor))).toMatchObject({ status: 403 });
      expect(await refusal(auth.rpc.call(RPC.auth.impersonate, { id: member.user.id }, actor))).toMatchObject({ status: 403 });
    }
    expect(await auth.rpc.call(RPC.auth.me, {}, regular)).toMatchObject({ status: 'active' });
    // An invented admin in the envelope counts for nothing: only a verified token does (ADR 0030).
    const nc = await connect({ servers: auth.env.NATS_URL });
    try {
      const subject = `${auth.env.NATS_SUBJECT_PREFIX}${RPC.auth.updateUser.subject}`;
      const envelope = { meta: { request_id: 'forged', token: null, actor: { user_id: admin.user.id, role: 'admin' } }, data: { id: member.user.id, changes: { status: 'suspended' } } };
      const packet = JSONCodec().encode({ pattern: subject, id: randomUUID(), data: envelope });
      // Signed by the gateway: the bus believes who sent it, never what it says of its caller.
      const reply = await requestAs(nc, auth.env, 'gateway', subject, packet);
      expect(JSONCodec().decode(reply.data)).toMatchObject({ err: { status: 401, detail: expect.not.stringContaining('not believed') } });
    } finally {
      await nc.close();
    }
    expect(await auth.rpc.call(RPC.auth.me, {}, regular)).toMatchObject({ status: 'active' });
    const suspended = await auth.rpc.call(RPC.auth.updateUser, { id: member.user.id, changes: { status: 'suspended' } }, adminCaller);
    expect(suspended.status).toBe('suspended');
    expect(await auth.rpc.call(RPC.auth.sessionState, { user_id: member.user.id }, null)).toMatchObject({ status: 'suspended' });
    // The suspension ends the member's sessions at once: the same token is now refused everywhere.
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, regular))).toMatchObject({ status: 401 });
  });

  it('writes user.suspended and user.reactivated with the change, in order, and nothing for a change that changes nothing (ADR 0038)', async () => {
    const member = await auth.rpc.call(RPC.auth.register, buildUser(), null);
    const admin = await auth.rpc.call(RPC.auth.login, { login: ADMIN.email, password: ADMIN.password }, null);
    const adminCaller = callerWithToken(admin.access_token);
    const update = (status: 'active' | 'suspended') => auth.rpc.call(RPC.auth.updateUser, { id: member.user.id, changes: { status } }, adminCaller);
    await update('suspended');
    await update('suspended');
    await update('active');
    await update('active');
    const rows: { name: string; payload: Record<string, string> }[] = await auth.app
      .get(DataSource)
      .query(`SELECT name, payload FROM outbox WHERE name IN ('user.suspended', 'user.reactivated') AND payload->>'user_id' = $1 ORDER BY seq`, [member.user.id]);
    expect(rows.map((row) => row.name)).toEqual(['user.suspended', 'user.reactivated']);
    expect(rows[0].payload).toMatchObject({ user_id: member.user.id, suspended_by: admin.user.id });
    expect(rows[1].payload).toMatchObject({ user_id: member.user.id, reactivated_by: admin.user.id });
    expect(Date.parse(rows[1].payload.at)).toBeGreaterThan(Date.parse(rows[0].payload.at));
  });

  it('logs a session out at once, lists and ends sessions, and "log out everywhere" ends them all', async () => {
    const user = buildUser();
    await auth.rpc.call(RPC.auth.register, user, null);
    const login = () => auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null).then((answer) => callerWithToken(answer.access_token));
    const [laptop, phone, tablet] = [await login(), await login(), await login()];
    expect((await auth.rpc.call(RPC.auth.listSessions, {}, laptop)).sessions).toHaveLength(3);
    await auth.rpc.call(RPC.auth.logout, {}, phone);
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, phone))).toMatchObject({ status: 401, detail: 'Your session has ended. Please log in again.' });
    const { sessions } = await auth.rpc.call(RPC.auth.listSessions, {}, laptop);
    expect(sessions).toHaveLength(2);
    const tabletSession = sessions.find((session) => !session.current)!;
    await auth.rpc.call(RPC.auth.revokeSession, { id: tabletSession.id }, laptop);
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, tablet))).toMatchObject({ status: 401 });
    // Another user's session id is unknown to this caller.
    const stranger = buildUser();
    await auth.rpc.call(RPC.auth.register, stranger, null);
    const strangerCaller = callerWithToken((await auth.rpc.call(RPC.auth.login, { login: stranger.username, password: stranger.password }, null)).access_token);
    const [laptopSession] = (await auth.rpc.call(RPC.auth.listSessions, {}, laptop)).sessions;
    expect(await refusal(auth.rpc.call(RPC.auth.revokeSession, { id: laptopSession.id }, strangerCaller))).toMatchObject({ status: 404 });
    expect(await auth.rpc.call(RPC.auth.me, {}, laptop)).toMatchObject({ username: user.username });
    await auth.rpc.call(RPC.auth.revokeAllSessions, {}, laptop);
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, laptop))).toMatchObject({ status: 401 });
    expect(await auth.rpc.call(RPC.auth.me, {}, strangerCaller)).toMatchObject({ username: stranger.username });
  });

  it('ends the impersonations an admin started when the admin logs out everywhere or changes password', async () => {
    const member = buildUser();
    const registered = await auth.rpc.call(RPC.auth.register, member, null);
    const adminLogin = () => auth.rpc.call(RPC.auth.login, { login: ADMIN.email, password: ADMIN.password }, null).then((a) => callerWithToken(a.access_token));
    const impersonateWith = async (admin: ReturnType<typeof callerWithToken>) =>
      callerWithToken((await auth.rpc.call(RPC.auth.impersonate, { id: registered.user.id }, admin)).impersonation_token);

    // "Log out everywhere" by the admin ends the impersonation, which is the member's session, not the admin's.
    const first = await adminLogin();
    const asMember = await impersonateWith(first);
    expect(await auth.rpc.call(RPC.auth.me, {}, asMember)).toMatchObject({ id: registered.user.id });
    await auth.rpc.call(RPC.auth.revokeAllSessions, {}, first);
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, asMember))).toMatchObject({ status: 401 });

    // The admin's password change ends it too (the token names the admin's credentials), then the old password returns.
    const second = await adminLogin();
    const again = await impersonateWith(second);
    const changed = await auth.rpc.call(RPC.auth.changePassword, { current_password: ADMIN.password, new_password: 'another admin pass phrase 2026' }, second);
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, again))).toMatchObject({ status: 401 });
    await auth.rpc.call(RPC.auth.changePassword, { current_password: 'another admin pass phrase 2026', new_password: ADMIN.password }, callerWithToken(changed.access_token));
  });

  it('never lets a login overwrite a newer account state with the one it read, and repairs a lost "ended" mark', async () => {
    const user = buildUser();
    const registered = await auth.rpc.call(RPC.auth.register, user, null);
    const redis = new Redis(auth.env.REDIS_URL);
    try {
      const key = accountStateKey(auth.env.REDIS_KEY_PREFIX, registered.user.id);
      // A suspension published while a login was checking the password: the login's older picture must not win.
      const signer = testBusIdentity(auth.env, 'auth-service').signer;
      await redis.set(key, sealAccountState(signer, registered.user.id, { token_version: 9, status: 'suspended', role: 'regular', email_verified: false }, 60), 'EX', 60);
      const login = await auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null);
      expect(JSON.parse((await redis.get(key))!).v).toMatchObject({ status: 'suspended', token_version: 9 });
      await redis.del(key);
      const caller = callerWithToken(login.access_token);
      expect(await auth.rpc.call(RPC.auth.me, {}, caller)).toMatchObject({ id: registered.user.id });

      // A session ended in PostgreSQL whose '0' never reached Redis: ending it again publishes the mark.
      const other = callerWithToken((await auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null)).access_token);
      const otherSession = (await auth.rpc.call(RPC.auth.listSessions, {}, caller)).sessions.find((session) => !session.current)!;
      await auth.rpc.call(RPC.auth.revokeSession, { id: otherSession.id }, caller);
      await redis.del(sessionKey(auth.env.REDIS_KEY_PREFIX, otherSession.id));
      // Without the mark, the token is still refused (PostgreSQL answers), and ending it again restores the mark.
      expect(await refusal(auth.rpc.call(RPC.auth.me, {}, other))).toMatchObject({ status: 401 });
      await redis.del(sessionKey(auth.env.REDIS_KEY_PREFIX, otherSession.id));
      await auth.rpc.call(RPC.auth.revokeSession, { id: otherSession.id }, caller);
      const keys = testBusIdentity(auth.env).keys;
      expect(openSessionState(keys, otherSession.id, await redis.get(sessionKey(auth.env.REDIS_KEY_PREFIX, otherSession.id)))).toEqual({ value: false });
    } finally {
      redis.disconnect();
    }
  });

  it('publishes a verified email at once, so every process lets the account commit (require_verified_email)', async () => {
    const nc = await connect({ servers: auth.env.NATS_URL });
    const redis = new Redis(auth.env.REDIS_URL);
    try {
      const requests = nc.subscribe(`${auth.env.EVENTS_PREFIX}.user.verification_requested`);
      await nc.flush();
      const user = buildUser();
      const registered = await auth.rpc.call(RPC.auth.register, user, null);
      await auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null);
      const key = accountStateKey(auth.env.REDIS_KEY_PREFIX, registered.user.id);
      expect(JSON.parse((await redis.get(key))!).v).toMatchObject({ email_verified: false });
      let token = '';
      for await (const message of requests) {
        const event = await openedEvent<'user.verification_requested'>(auth.env, JSON.parse(message.string()));
        if (event.payload.user_id === registered.user.id) {
          token = event.payload.token;
          break;
        }
      }
      await auth.rpc.call(RPC.auth.verifyEmail, { token }, null);
      expect(JSON.parse((await redis.get(key))!).v).toMatchObject({ email_verified: true });
      expect(await auth.rpc.call(RPC.auth.sessionState, { user_id: registered.user.id }, null)).toMatchObject({ email_verified: true });
    } finally {
      redis.disconnect();
      await nc.close();
    }
  });
});
