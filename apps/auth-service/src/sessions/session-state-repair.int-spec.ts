import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { createRequestRedis, sessionKey, accountStateKey, IdentityCache, openSessionState, type ServiceConfig } from '@market/server-kit';

// auth-service's bus key signs what the store writes (ADR 0065): a test key of this file's own.
const bus = testBusIdentity(isolatedEnv('postgres://unused'), 'auth-service');
import { eventually, isolatedEnv, testBusIdentity } from '@market/server-kit/testing';
import type { AuthConfig } from '../auth.config';
import { SessionStateStore } from './session-state.store';

// A Redis of this file's own, so pausing it touches no other test.
const PORT = 6393;
const PREFIX = 'repair-test:';

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * A revocation published while Redis does not answer (ADR 0044): the write fails fast and the change stands in
 * PostgreSQL; once Redis answers again the store deletes the keys it could not update, so no reader is left with the
 * old "live" session or "active" account for the rest of its cache time.
 */
describe('SessionStateStore after a missed write', () => {
  let server: ChildProcess;
  let redis: Redis;
  let store: SessionStateStore;
  // The identity.changed notices the store announced (ADR 0057).
  const notices: Array<{ subject: string; change: unknown }> = [];
  const nc = {
    publish: (subject: string, data: string) => notices.push({ subject, change: JSON.parse(data) }),
    flush: async () => undefined,
  } as unknown as NatsConnection;

  beforeAll(async () => {
    server = spawn('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await eventually(async () => expect(await portOpen(PORT)).toBe(true), 5_000, 50);
    redis = createRequestRedis(`redis://127.0.0.1:${PORT}`, 'repair-test');
    await eventually(async () => expect(await redis.ping()).toBe('PONG'), 5_000, 50);
    store = new SessionStateStore(
      redis,
      { REDIS_KEY_PREFIX: PREFIX, NATS_SUBJECT_PREFIX: 'repair.' } as ServiceConfig,
      { JWT_TTL_SECONDS: 3600 } as AuthConfig,
      nc,
      new IdentityCache(),
      bus,
    );
  });
  afterAll(async () => {
    store?.onModuleDestroy();
    redis?.disconnect();
    if (server && server.exitCode === null) {
      server.kill('SIGCONT');
      server.kill('SIGKILL');
    }
  });

  it('deletes a session and an account state it could not overwrite once Redis answers again', async () => {
    const session = sessionKey(PREFIX, 'session-1');
    const account = accountStateKey(PREFIX, 'user-1');
    await redis.set(session, '1');
    await redis.set(account, JSON.stringify({ token_version: 1, status: 'active', role: 'regular', email_verified: true }));

    server.kill('SIGSTOP');
    try {
      await store.publishSessions(['session-1'], false);
      await store.publish({ id: 'user-1', tokenVersion: 2, status: 'suspended', role: 'regular', emailVerifiedAt: null });
      expect(store.unsettledCount).toBe(2);
    } finally {
      server.kill('SIGCONT');
    }

    await eventually(async () => expect(store.unsettledCount).toBe(0), 10_000, 100);
    // Neither the live session nor the active account is left for a reader: it asks auth-service (PostgreSQL) instead.
    expect(await redis.mget(session, account)).toEqual([null, null]);
    // Each change was announced at once, and once more after the repair: a process that read the old state from Redis
    // meanwhile drops it too.
    expect(notices).toEqual([
      { subject: 'repair.identity.changed', change: { sessions: ['session-1'] } },
      { subject: 'repair.identity.changed', change: { users: ['user-1'] } },
      { subject: 'repair.identity.changed', change: { all: true } },
    ]);
  });

  it('leaves nothing to repair when the write went through', async () => {
    notices.length = 0;
    await store.publishSessions(['session-2'], false);
    expect(store.unsettledCount).toBe(0);
    expect(openSessionState(bus.keys, 'session-2', await redis.get(sessionKey(PREFIX, 'session-2')))).toEqual({ value: false });
    expect(notices).toEqual([{ subject: 'repair.identity.changed', change: { sessions: ['session-2'] } }]);
    // A new session was never kept anywhere: nothing to announce.
    await store.publishSessions(['session-3'], true);
    expect(notices).toHaveLength(1);
  });
});
