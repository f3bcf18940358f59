import { connect, JSONCodec, type Msg, type NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import { RPC } from '@market/contracts';
import { RpcClient } from '../rpc/rpc-client';
import { createRequestRedis } from '../jobs/redis';
import { eventually, isolatedEnv, respondSigned, testBusIdentity, openRequest } from '../testing';
import { AccountStates } from './account-states';
import { IdentityCache } from './identity-cache';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const codec = JSONCodec<Record<string, unknown>>();
// A port nothing listens on: Redis is away for the whole file, the case where every read goes to auth-service.
const REDIS_AWAY = 'redis://127.0.0.1:1';

/**
 * AccountStates reading through to auth-service (ADR 0057) against a real NATS, with Redis away: a stand-in for
 * auth-service answers auth.session_state as Nest's ServerNats does, but only when the test releases its answers.
 */
describe('AccountStates: one read per state, renewed before it ends (real NATS, Redis away)', () => {
  const prefix = `states_${Date.now().toString(36)}.`;
  // Bus keys of this file's own: the stand-in signs as auth-service, the client as the gateway (D25).
  const env = isolatedEnv('postgres://unused');
  let responder: NatsConnection;
  let client: RpcClient;
  let redis: Redis;
  const held: Msg[] = [];
  let version = 1;
  const asked = () => held.length + answered;
  let answered = 0;

  /** Answers every held request with the account's current version. */
  const release = () => {
    for (const msg of held.splice(0)) {
      const packet = codec.decode(openRequest(env, 'auth-service', msg));
      const response = { token_version: version, status: 'active', role: 'regular', email_verified: true, session_active: true };
      respondSigned(env, 'auth-service', msg, { id: packet.id, response, isDisposed: true });
      answered += 1;
    }
  };

  beforeAll(async () => {
    responder = await connect({ servers: NATS_URL });
    responder.subscribe(`${prefix}${RPC.auth.sessionState.subject}`, { callback: (_error, msg) => held.push(msg) });
    await responder.flush();
    client = new RpcClient({ natsUrl: NATS_URL, name: 'account-states-test', timeoutMs: 5_000, subjectPrefix: prefix, bus: testBusIdentity(env) });
    await client.connect();
    redis = createRequestRedis(REDIS_AWAY, 'account-states-test');
  });
  afterAll(async () => {
    redis?.disconnect();
    await client?.close();
    await responder?.close();
  });

  /** A cache that hears this file's notices, and the reader over it. */
  async function reader(ttlMs: number) {
    const cache = new IdentityCache(ttlMs);
    await cache.listen(client.connection(), prefix);
    return { cache, states: new AccountStates(redis, client, prefix, testBusIdentity(env).keys, cache) };
  }

  it('answers concurrent lookups of one state with one request to auth-service', async () => {
    const { cache, states } = await reader(60_000);
    try {
      const before = asked();
      const lookups = Promise.all([1, 2, 3, 4, 5].map(() => states.lookup('user-a', 'session-a')));
      await eventually(async () => expect(asked()).toBe(before + 1));
      release();
      const answers = await lookups;
      expect(answers.every((state) => state.token_version === version && state.session_active)).toBe(true);
      expect(asked()).toBe(before + 1);
      expect(states.readsUnderWay).toBe(0);
    } finally {
      cache.close();
    }
  });

  it('never hands a read begun before a notice to a lookup made after it', async () => {
    const { cache, states } = await reader(60_000);
    try {
      const before = asked();
      const mark = cache.mark();
      const early = states.lookup('user-b', 'session-b');
      await eventually(async () => expect(asked()).toBe(before + 1));
      // The account changes and auth-service says so while the first read waits for its answer.
      version += 1;
      responder.publish(`${prefix}identity.changed`, codec.encode({ users: ['user-b'] }));
      await eventually(async () => expect(cache.mark()).toBeGreaterThan(mark));
      const late = states.lookup('user-b', 'session-b');
      await eventually(async () => expect(asked()).toBe(before + 2));
      release();
      expect((await late).token_version).toBe(version);
      await early;
      // Only the read begun after the notice is kept.
      expect(cache.get('user-b', 'session-b')?.account.token_version).toBe(version);
    } finally {
      cache.close();
    }
  });

  it('answers a state near its end from memory at once and renews it in the background', async () => {
    const { cache, states } = await reader(1_500);
    try {
      const first = states.lookup('user-c', 'session-c');
      await eventually(async () => expect(held.length).toBe(1));
      release();
      await first;
      const before = asked();
      await eventually(async () => expect(cache.get('user-c', 'session-c')?.refreshDue).toBe(true), 2_000, 20);
      // auth-service holds its answer: the lookup still answers, from memory, and one renewal is asked for.
      const answers = await Promise.all([1, 2, 3].map(() => states.lookup('user-c', 'session-c')));
      expect(answers.every((state) => state.session_active)).toBe(true);
      await eventually(async () => expect(asked()).toBe(before + 1));
      release();
      // Renewed: kept past the first answer's end without another request.
      await eventually(async () => expect(cache.get('user-c', 'session-c')?.refreshDue).toBe(false));
      expect(asked()).toBe(before + 1);
    } finally {
      cache.close();
    }
  });
});
