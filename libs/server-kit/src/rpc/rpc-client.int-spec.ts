import { connect, JSONCodec, type NatsConnection } from 'nats';
import { RPC } from '@market/contracts';
import { RpcClient } from './rpc-client';
import { IdentityCache } from '../identity/identity-cache';
import { startTcpProxy } from '../testing/tcp-proxy';
import { isolatedEnv, testBusIdentity } from '../testing/test-env';
import { openRequest, respondSigned } from '../testing/test-bus';
import { takeRequest } from '../bus/bus-requests';
import { openFrom, sealFor } from '../bus/bus-sealing';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const codec = JSONCodec<Record<string, unknown>>();

/**
 * RpcClient on nats.js with one reply subscription (ADR 0057), against a real NATS and a responder that answers as
 * Nest's ServerNats does: the packet's id back, `response` or `err`, `isDisposed`.
 */
describe('RpcClient over a real NATS', () => {
  const prefix = `rpc_${Date.now().toString(36)}.`;
  // Bus keys of this file's own: the stand-in answers auth.me signed as auth-service (D25).
  const env = isolatedEnv('postgres://unused');
  let responder: NatsConnection;
  let client: RpcClient;
  // The same client's settings with a short timeout, for the calls that must end in one: answers come to `client`,
  // which waits long enough that a loaded machine (CI runs suites side by side) cannot turn an answer into a 503.
  let impatient: RpcClient;
  const received: Array<Record<string, unknown>> = [];
  const sniffed: string[] = [];

  beforeAll(async () => {
    responder = await connect({ servers: NATS_URL });
    responder.subscribe(`${prefix}${RPC.auth.me.subject}`, {
      callback: (_error, msg) => {
        const packet = codec.decode(openRequest(env, 'auth-service', msg));
        received.push(packet);
        sniffed.push(new TextDecoder().decode(msg.data));
        const meta = (packet.data as { meta: { token: string | null } }).meta;
        if (meta.token === 'slow') return; // never answers
        // A spoofed reply races the real one: unsigned, then signed by a real process that does not answer auth.me.
        if (meta.token === 'spoofed' || meta.token === 'spoofed-only') {
          msg.respond(codec.encode({ id: packet.id, response: { answered: 'unsigned spoof' }, isDisposed: true }));
          respondSigned(env, 'billing-service', msg, { id: packet.id, response: { answered: 'billing spoof' }, isDisposed: true }, 'auth-service');
          if (meta.token === 'spoofed-only') return;
        }
        // The frame auth-service would seal for this request, sent in clear: what a sealed answer is not (ADR 0066).
        if (meta.token === 'clear') {
          const auth = testBusIdentity(env, 'auth-service');
          const taken = takeRequest(auth.signer, auth.keys, msg.subject, msg.reply ?? '', msg.data);
          const nonce = 'problem' in taken ? '' : taken.nonce;
          const answer = codec.encode({ id: packet.id, response: { answered: 'clear' }, isDisposed: true });
          msg.respond(Buffer.concat([Buffer.from(`market-bus-2 reply\nauth-service\n${msg.reply}\n${nonce}\n`), answer]));
          return;
        }
        if (meta.token === null) respondSigned(env, 'auth-service', msg, { id: packet.id, err: { status: 401, code: 'unauthorized', detail: 'Not authenticated' }, isDisposed: true });
        else respondSigned(env, 'auth-service', msg, { id: packet.id, response: { answered: meta.token }, isDisposed: true });
      },
    });
    await responder.flush();
    client = new RpcClient({ natsUrl: NATS_URL, name: 'rpc-client-test', timeoutMs: 5000, subjectPrefix: prefix, bus: testBusIdentity(env) });
    await client.connect();
    impatient = new RpcClient({ natsUrl: NATS_URL, name: 'rpc-client-test-impatient', timeoutMs: 300, subjectPrefix: prefix, bus: testBusIdentity(env) });
    await impatient.connect();
    // The keys both sides share are worked out on first use (milliseconds each): before the 300 ms timeouts run.
    for (const [from, to] of [['gateway', 'auth-service'], ['auth-service', 'gateway']] as const) {
      const [sender, receiver] = [testBusIdentity(env, from), testBusIdentity(env, to)];
      openFrom(receiver.signer, receiver.keys, from, sealFor(sender.signer, sender.keys, to, new Uint8Array([1])));
    }
  });
  afterAll(async () => {
    await client?.close();
    await impatient?.close();
    await responder?.close();
  });

  const actor = (token: string) => ({ user_id: 'u', role: 'regular' as const, token });

  it("sends Nest's request packet with the envelope and answers many requests at once, each its own reply", async () => {
    const answers = await Promise.all(['t1', 't2', 't3', 't4'].map((token) => client.call(RPC.auth.me, {}, actor(token))));
    expect(answers).toEqual(['t1', 't2', 't3', 't4'].map((token) => ({ answered: token })));
    const packet = received[0];
    expect(packet).toMatchObject({ pattern: 'auth.me', data: { meta: { token: 't1' }, data: {} } });
    expect(typeof packet.id).toBe('string');
    expect((packet.data as { meta: { request_id: string; deadline: number } }).meta).toEqual(expect.objectContaining({ request_id: expect.any(String), deadline: expect.any(Number) }));
  });

  it("takes only the reply signed by the subject's owner: spoofed ones before it are ignored (D25)", async () => {
    expect(await client.call(RPC.auth.me, {}, actor('spoofed'))).toEqual({ answered: 'spoofed' });
    // With no genuine reply at all, the caller waits out its timeout: a 503, never the spoofed answer.
    await expect(impatient.call(RPC.auth.me, {}, actor('spoofed-only'))).rejects.toMatchObject({ status: 503 });
  });

  it("sends its request sealed for the owner, whose token no one else on the subject reads, and ignores an answer in clear (ADR 0066)", async () => {
    await expect(client.call(RPC.auth.me, {}, actor('secret-token-of-a-member'))).resolves.toEqual({ answered: 'secret-token-of-a-member' });
    expect(sniffed.length).toBeGreaterThan(0);
    expect(sniffed.every((text) => !text.includes('secret-token-of-a-member') && !text.includes('"meta"'))).toBe(true);
    await expect(impatient.call(RPC.auth.me, {}, actor('clear'))).rejects.toMatchObject({ status: 503 });
  });

  it("throws the service's typed error, and a 503 for no answer in time or nobody subscribed", async () => {
    await expect(client.call(RPC.auth.me, {}, null)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    const started = Date.now();
    await expect(impatient.call(RPC.auth.me, {}, actor('slow'))).rejects.toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await expect(impatient.call(RPC.auth.logout, {}, actor('t'))).rejects.toMatchObject({ status: 503 });
  });

  it('hands its connection to an identity cache, which hears identity.changed on it', async () => {
    const cache = new IdentityCache();
    await cache.listen(client.connection(), prefix);
    const state = { token_version: 1, status: 'active' as const, role: 'regular' as const, email_verified: true };
    cache.keep(cache.mark(), 'user-1', state, 'session-1', true);
    expect(cache.get('user-1', 'session-1')).not.toBeNull();
    responder.publish(`${prefix}identity.changed`, codec.encode({ sessions: ['session-1'] }));
    await responder.flush();
    const deadline = Date.now() + 2000;
    while (cache.get('user-1', 'session-1') !== null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cache.get('user-1', 'session-1')).toBeNull();
    cache.close();
  });

  it('keeps no identity state while its connection is down, answers 503 at once meanwhile, and keeps again once back', async () => {
    const nats = new URL(NATS_URL);
    const proxy = await startTcpProxy(nats.hostname, Number(nats.port || 4222));
    const cut = new RpcClient({ natsUrl: proxy.url('nats'), name: 'rpc-client-cut', timeoutMs: 2000, subjectPrefix: prefix, bus: testBusIdentity(env) });
    const cache = new IdentityCache();
    const state = { token_version: 1, status: 'active' as const, role: 'regular' as const, email_verified: true };
    const waitFor = async (check: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(check()).toBe(true);
    };
    try {
      await cut.connect();
      await cache.listen(cut.connection(), prefix);
      cache.keep(cache.mark(), 'user-2', state, null, true);
      expect(cache.size).toBe(1);

      await proxy.pause();
      await waitFor(() => cache.size === 0);
      cache.keep(cache.mark(), 'user-2', state, null, true);
      expect(cache.get('user-2', null)).toBeNull();
      const started = Date.now();
      await expect(cut.call(RPC.auth.me, {}, actor('t1'))).rejects.toMatchObject({ status: 503 });
      expect(Date.now() - started).toBeLessThan(1000);

      await proxy.resume();
      await waitFor(() => {
        cache.keep(cache.mark(), 'user-2', state, null, true);
        return cache.get('user-2', null) !== null;
      });
      expect(await cut.call(RPC.auth.me, {}, actor('t1'))).toEqual({ answered: 't1' });
    } finally {
      cache.close();
      await cut.close();
      await proxy.close();
    }
  }, 30_000);
});
