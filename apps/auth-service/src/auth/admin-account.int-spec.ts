import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RPC } from '@market/contracts';
import { AppError, createServiceApp, parseEnvOrThrow } from '@market/server-kit';
import { buildUser, deleteStream, startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { authEnv } from '../auth.config';
import { authAppModule } from '../app.module';

const ADMIN = { email: 'first-admin@auth-it.example.com', password: 'first-admin-pass-2026' };

/** One more auth-service on the same database and subjects (a restart, or a replica). */
async function startAuth(env: Record<string, string>): Promise<INestApplication> {
  const config = parseEnvOrThrow(authEnv, env);
  return createServiceApp({ service: 'auth-service', module: authAppModule(config), config, defaultHealthPort: 0, healthPort: 0 });
}

describe('ADMIN_EMAIL and ADMIN_PASSWORD create the first admin only (ADR 0031)', () => {
  let auth: ServiceUnderTest;
  const running: INestApplication[] = [];
  const login = (password: string) => auth.rpc.call(RPC.auth.login, { login: ADMIN.email, password }, null);
  const refused = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (error instanceof AppError ? error.status : Promise.reject(error)),
    );
  const admins = async () =>
    (await auth.app.get(DataSource).query("SELECT email, status FROM users WHERE role = 'admin' ORDER BY created_at")) as Array<{ email: string; status: string }>;

  beforeAll(async () => {
    auth = await startServiceUnderTest('auth-service', (env) => {
      const config = parseEnvOrThrow(authEnv, env);
      return { module: authAppModule(config), config };
    }, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(async () => {
    await auth?.rpc.close();
    for (const app of new Set([...running, auth?.app])) await app?.close();
    if (auth) await deleteStream(auth.env.NATS_URL, auth.env.EVENTS_STREAM);
    await auth?.db.drop();
  });

  it('keeps a password changed through the API across restarts with ADMIN_PASSWORD still set', async () => {
    const first = await login(ADMIN.password);
    expect(first.user.role).toBe('admin');
    // The admin's own session, as the gateway forwards it (its token travels, ADR 0030).
    const actor = { user_id: first.user.id, role: 'admin' as const, token: first.access_token };
    const changed = await auth.rpc.call(RPC.auth.changePassword, { current_password: ADMIN.password, new_password: 'a-new-admin-passphrase' }, actor);
    expect(changed.access_token).toEqual(expect.any(String));

    // A restart, then two replicas starting at once: none of them puts ADMIN_PASSWORD back or adds an admin.
    await auth.app.close();
    running.push(await startAuth(auth.env));
    auth.app = running[0];
    running.push(...(await Promise.all([startAuth(auth.env), startAuth(auth.env)])));

    expect(await refused(login(ADMIN.password))).toBe(401);
    expect((await login('a-new-admin-passphrase')).user.id).toBe(first.user.id);
    expect(await admins()).toEqual([{ email: ADMIN.email, status: 'active' }]);
  });

  it('never creates a second admin while one exists', async () => {
    const member = buildUser();
    await auth.rpc.call(RPC.auth.register, member, null);
    running.push(await startAuth({ ...auth.env, ADMIN_EMAIL: 'second-admin@auth-it.example.com', ADMIN_PASSWORD: 'second-admin-pass-2026' }));
    expect(await admins()).toEqual([{ email: ADMIN.email, status: 'active' }]);
  });

  it('never takes over an address a member registered before the first admin', async () => {
    const fresh = await startServiceUnderTest('auth-service', (env) => {
      const config = parseEnvOrThrow(authEnv, env);
      return { module: authAppModule(config), config };
    });
    let restarted: INestApplication | undefined;
    try {
      const member = buildUser();
      await fresh.rpc.call(RPC.auth.register, member, null);
      await fresh.app.close();
      restarted = await startAuth({ ...fresh.env, ADMIN_EMAIL: member.email, ADMIN_PASSWORD: 'takeover-attempt-2026' });

      expect(await refused(fresh.rpc.call(RPC.auth.login, { login: member.email, password: 'takeover-attempt-2026' }, null))).toBe(401);
      expect((await fresh.rpc.call(RPC.auth.login, { login: member.username, password: member.password }, null)).user.role).toBe('regular');
      expect(await restarted.get(DataSource).query("SELECT 1 FROM users WHERE role = 'admin'")).toEqual([]);
    } finally {
      // Closed on a failed assertion too: a replica left running outlives the test's environment.
      await restarted?.close();
      await fresh.stop();
    }
  });
});
