import { connect, JSONCodec, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { RPC, type Actor, type RegisterRequest } from '@market/contracts';
import { AppError, eventSubject, parseEnvOrThrow } from '@market/server-kit';
import { buildUser, callerWithToken, eventually, openedEvent, startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { authEnv } from '../auth.config';
import { authAppModule } from '../app.module';

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

describe('email changes and their undo (ADR 0034)', () => {
  let auth: ServiceUnderTest;
  let nc: NatsConnection;
  const db = () => auth.app.get(DataSource);

  beforeAll(async () => {
    auth = await startServiceUnderTest('auth-service', (env) => {
      const config = parseEnvOrThrow(authEnv, env);
      return { module: authAppModule(config), config };
    });
    nc = await connect({ servers: auth.env.NATS_URL });
  });
  afterAll(async () => {
    await nc?.close();
    await auth?.stop();
  });

  const login = async (user: RegisterRequest, device = 'it-browser'): Promise<Actor> => {
    const answer = await auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password, client: { address: '198.51.100.7', user_agent: device } }, null);
    return callerWithToken(answer.access_token);
  };
  const signUp = async () => {
    const user = buildUser();
    const { user: created } = await auth.rpc.call(RPC.auth.register, user, null);
    return { ...user, id: created.id };
  };
  const changeEmail = (actor: Actor, email: string, password?: string) =>
    auth.rpc.call(RPC.auth.updateProfile, { name: 'Changed Person', email, ...(password === undefined ? {} : { current_password: password }) }, actor);
  const emailOf = async (id: string) => (await db().query('SELECT email, email_verified_at FROM users WHERE id = $1', [id]))[0];

  /**
   * The latest `user.email_changed` event for a user that carries a token not seen before, read off the stream where
   * notifications-service would read it (no consumer runs here, so nothing purges it).
   */
  const nextUndoEvent = (userId: string, seen: string[] = []) =>
    eventually(async () => {
      const jsm = await nc.jetstreamManager();
      const message = await jsm.streams.getMessage(auth.env.EVENTS_STREAM, { last_by_subj: eventSubject(auth.env.EVENTS_PREFIX, 'user.email_changed') });
      const event = await openedEvent<'user.email_changed'>(auth.env, JSONCodec().decode(message.data));
      expect(event.payload.user_id).toBe(userId);
      expect(seen).not.toContain(event.payload.token);
      return event.payload;
    });

  it('asks for the current password only when the email changes', async () => {
    const user = await signUp();
    const actor = await login(user);
    const renamed = await auth.rpc.call(RPC.auth.updateProfile, { name: 'Just A Name', email: user.email.toUpperCase(), location: 'Lisbon' }, actor);
    expect(renamed).toMatchObject({ name: 'Just A Name', location: 'Lisbon' });

    const missing = await refusal(changeEmail(actor, `moved_${user.email}`));
    expect(missing).toEqual({
      status: 422,
      detail: [{ loc: ['body', 'current_password'], msg: 'Enter your current password to change your email', type: 'missing' }],
    });
    expect(await refusal(changeEmail(actor, `moved_${user.email}`, 'not the password at all'))).toEqual({ status: 400, detail: 'Current password is incorrect' });
    expect((await emailOf(user.id)).email.toLowerCase()).toBe(user.email.toLowerCase());
    const tokens = await db().query("SELECT 1 FROM account_tokens WHERE user_id = $1 AND purpose = 'undo_email_change'", [user.id]);
    expect(tokens).toHaveLength(0);
  });

  it('a changed email ends every other session, keeps this one, and tells the old address without leaving its token', async () => {
    const user = await signUp();
    const [laptop, phone, tablet] = [await login(user, 'laptop'), await login(user, 'phone'), await login(user, 'tablet')];
    const newEmail = `new_${user.email}`;
    const changed = await changeEmail(laptop, newEmail, user.password);
    expect(changed).toMatchObject({ email: newEmail, email_verified: false });

    expect(await auth.rpc.call(RPC.auth.me, {}, laptop)).toMatchObject({ email: newEmail });
    for (const other of [phone, tablet]) expect(await refusal(auth.rpc.call(RPC.auth.me, {}, other))).toMatchObject({ status: 401 });
    const { sessions } = await auth.rpc.call(RPC.auth.listSessions, {}, laptop);
    expect(sessions).toEqual([expect.objectContaining({ device: 'laptop', current: true })]);

    const event = await nextUndoEvent(user.id);
    expect(event).toMatchObject({ username: user.username, old_email: user.email, new_email: newEmail });
    const [stored] = await db().query("SELECT email, extract(epoch FROM expires_at - created_at)::float AS lifetime FROM account_tokens WHERE user_id = $1 AND purpose = 'undo_email_change'", [user.id]);
    expect(stored.email).toBe(user.email);
    expect(stored.lifetime).toBeCloseTo(7 * 24 * 3600, -1);
    // The relay strips the one-time token from the outbox once the event is out (ADR 0008).
    await eventually(async () => {
      const rows = await db().query("SELECT payload::text AS payload, published_at FROM outbox WHERE name = 'user.email_changed' AND payload->>'user_id' = $1", [user.id]);
      expect(rows).toHaveLength(1);
      expect(rows[0].published_at).not.toBeNull();
      expect(rows[0].payload).not.toContain(event.token);
    });
  });

  it('undoes once: the old address is back and verified, every session ends, the password is retired and pending links are void', async () => {
    const user = await signUp();
    const actor = await login(user);
    await changeEmail(actor, `taken_${user.email}`, user.password);
    const { token } = await nextUndoEvent(user.id);
    // Whoever changed it may have asked for a reset at the new address: that link must die with the undo.
    await auth.rpc.call(RPC.auth.forgotPassword, { email: `taken_${user.email}` }, null);

    const undone = await auth.rpc.call(RPC.auth.undoEmailChange, { token }, null);
    expect(undone.message).toMatch(/restored/);
    const restored = await emailOf(user.id);
    expect(restored.email).toBe(user.email);
    expect(restored.email_verified_at).not.toBeNull();
    expect(await refusal(auth.rpc.call(RPC.auth.me, {}, actor))).toMatchObject({ status: 401 });
    expect(await refusal(auth.rpc.call(RPC.auth.login, { login: user.username, password: user.password }, null))).toMatchObject({ status: 401 });
    const pending = await db().query('SELECT purpose FROM account_tokens WHERE user_id = $1 AND used_at IS NULL', [user.id]);
    expect(pending).toEqual([]);
    const live = await db().query('SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [user.id]);
    expect(live).toEqual([]);

    expect(await refusal(auth.rpc.call(RPC.auth.undoEmailChange, { token }, null))).toEqual({ status: 400, detail: 'Invalid or expired undo link' });
  });

  it('refuses a link past its 7 days', async () => {
    const user = await signUp();
    await changeEmail(await login(user), `late_${user.email}`, user.password);
    const { token } = await nextUndoEvent(user.id);
    await db().query("UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'undo_email_change'", [user.id]);
    expect(await refusal(auth.rpc.call(RPC.auth.undoEmailChange, { token }, null))).toEqual({ status: 400, detail: 'Invalid or expired undo link' });
    expect((await emailOf(user.id)).email).toBe(`late_${user.email}`);
  });

  it('a newer change keeps earlier links working; an undo voids the links of later changes only', async () => {
    // A -> B -> C, then B's link (mailed to B) is used first: A's link still takes the account back to A.
    const user = await signUp();
    const [a, b, c] = [user.email, `b_${user.email}`, `c_${user.email}`];
    let actor = await login(user);
    await changeEmail(actor, b, user.password);
    const toA = await nextUndoEvent(user.id);
    await changeEmail(actor, c, user.password);
    const toB = await nextUndoEvent(user.id, [toA.token]);
    expect(toB).toMatchObject({ old_email: b, new_email: c });
    await auth.rpc.call(RPC.auth.undoEmailChange, { token: toB.token }, null);
    expect((await emailOf(user.id)).email).toBe(b);
    await auth.rpc.call(RPC.auth.undoEmailChange, { token: toA.token }, null);
    expect((await emailOf(user.id)).email).toBe(a);

    // A -> B -> C again, A's link used first: B's link is refused afterwards.
    const other = await signUp();
    actor = await login(other);
    await changeEmail(actor, `b_${other.email}`, other.password);
    const first = await nextUndoEvent(other.id);
    await changeEmail(actor, `c_${other.email}`, other.password);
    const second = await nextUndoEvent(other.id, [first.token]);
    await auth.rpc.call(RPC.auth.undoEmailChange, { token: first.token }, null);
    expect(await refusal(auth.rpc.call(RPC.auth.undoEmailChange, { token: second.token }, null))).toEqual({ status: 400, detail: 'Invalid or expired undo link' });
    expect((await emailOf(other.id)).email).toBe(other.email);
  });

  it('keeps the old address reserved while its link is pending, and answers 409 without spending the link when it was taken', async () => {
    const user = await signUp();
    await changeEmail(await login(user), `away_${user.email}`, user.password);
    const { token } = await nextUndoEvent(user.id);

    const squatter = buildUser({ email: user.email.toUpperCase() });
    expect(await refusal(auth.rpc.call(RPC.auth.register, squatter, null))).toEqual({ status: 409, detail: 'An account with this email already exists' });
    const neighbour = await signUp();
    expect(await refusal(changeEmail(await login(neighbour), user.email, neighbour.password))).toEqual({ status: 409, detail: 'An account with this email already exists' });

    // Taken anyway (as a race would): the undo says so and the link stays usable.
    await db().query('UPDATE users SET email = $2 WHERE id = $1', [neighbour.id, user.email]);
    const taken = await refusal(auth.rpc.call(RPC.auth.undoEmailChange, { token }, null));
    expect(taken).toEqual({ status: 409, detail: `${user.email} now belongs to another account, so this change cannot be undone. Please contact support.` });
    expect((await emailOf(user.id)).email).toBe(`away_${user.email}`);
    await db().query('UPDATE users SET email = $2 WHERE id = $1', [neighbour.id, neighbour.email]);
    await auth.rpc.call(RPC.auth.undoEmailChange, { token }, null);
    expect((await emailOf(user.id)).email).toBe(user.email);
  });
});
