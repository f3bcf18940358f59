import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { RPC, type Actor, type RpcEnvelope } from '@market/contracts';
import { AppError, parseEnvOrThrow, readNestReply, RpcClient, natsTarget, serviceEnv } from '@market/server-kit';
import { requestAs, startServiceUnderTest, testBusIdentity, testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { listingsAppModule } from '../app.module';
import { buildListing } from '../testing/listing.factory';
import { ListingsService } from './listings.service';

/** The typed error a call failed with (the test fails if it succeeded). */
async function failure(call: Promise<unknown>): Promise<AppError> {
  const outcome = await call.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof AppError)) throw new Error(`expected a typed error, got ${String(outcome)}`);
  return outcome;
}

describe('Idempotency-Key and caller deadlines on a service (ADR 0047)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let raw: NatsConnection;
  // A request as a client would send it, signed by the gateway, with whatever deadline the test gives (ADR 0047).
  const sendRaw = async (envelope: RpcEnvelope): Promise<unknown> => {
    const subject = `${svc.env.NATS_SUBJECT_PREFIX}${RPC.listings.create.subject}`;
    const data = JSONCodec().encode({ pattern: RPC.listings.create.subject, id: randomUUID(), data: envelope });
    const reply = await requestAs(raw, svc.env, 'gateway', subject, data);
    return readNestReply(JSONCodec().decode(reply.data));
  };

  const listingsOf = async (seller: string) =>
    ((await ds.query('SELECT id FROM listings WHERE seller_id = $1', [seller])) as { id: string }[]).map((row) => row.id);
  const create = (seller: Actor, listing: ReturnType<typeof buildListing>, key: string) =>
    svc.rpc.call(RPC.listings.create, { listing, screenshots: [] }, seller, { idempotency: { key } });

  beforeAll(async () => {
    svc = await startServiceUnderTest('listings-service', (env) => {
      const config = parseEnvOrThrow(serviceEnv, env);
      return { module: listingsAppModule(config), config };
    });
    ds = svc.app.get(DataSource);
    raw = await connect(natsTarget(svc.env.NATS_URL));
  });
  afterAll(async () => {
    await raw?.close();
    await svc?.stop();
  });

  it('a retry with the same key answers the first listing and creates nothing more', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listing = buildListing();
    const key = randomUUID();
    const first = await create(seller, listing, key);
    const again = await create(seller, listing, key);
    expect(again).toEqual(first);
    expect(await listingsOf(seller.user_id)).toEqual([first.id]);
    // A new user action (a new key) is a new listing.
    const other = await create(seller, listing, randomUUID());
    expect(other.id).not.toBe(first.id);
    expect((await listingsOf(seller.user_id)).sort()).toEqual([first.id, other.id].sort());
  });

  it('the same key with a different body is refused with 422 and changes nothing', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const key = randomUUID();
    const first = await create(seller, buildListing(), key);
    const refused = await failure(create(seller, buildListing(), key));
    expect(refused.status).toBe(422);
    expect(refused.detail).toBe('This Idempotency-Key was already used for a different request');
    expect(await listingsOf(seller.user_id)).toEqual([first.id]);
  });

  it('keys belong to their user: another user with the same key gets their own listing', async () => {
    const [a, b] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    const key = randomUUID();
    const listing = buildListing();
    const mine = await create(a, listing, key);
    const theirs = await create(b, listing, key);
    expect(theirs.id).not.toBe(mine.id);
    expect(await listingsOf(b.user_id)).toEqual([theirs.id]);
  });

  it('concurrent duplicates make one listing; each answers it or 409 while it runs', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listing = buildListing();
    const key = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        create(seller, listing, key).then(
          (created) => ({ id: created.id }),
          (error: unknown) => ({ status: (error as AppError).status }),
        ),
      ),
    );
    const made = await listingsOf(seller.user_id);
    expect(made).toHaveLength(1);
    for (const outcome of outcomes) expect(outcome).toEqual('id' in outcome ? { id: made[0] } : { status: 409 });
    expect(outcomes.some((outcome) => 'id' in outcome)).toBe(true);
    // Once the first has finished, a retry answers it.
    expect((await create(seller, listing, key)).id).toBe(made[0]);
  });

  it('a failure without a typed answer (5xx) frees the key: the retry creates the listing once', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listing = buildListing();
    const key = randomUUID();
    const broken = jest.spyOn(svc.app.get(ListingsService), 'create').mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    try {
      // A lost database connection is a 503 (ADR 0044): a 5xx, so the key is freed.
      expect((await failure(create(seller, listing, key))).status).toBe(503);
    } finally {
      broken.mockRestore();
    }
    expect(await listingsOf(seller.user_id)).toEqual([]);
    const created = await create(seller, listing, key);
    expect(await create(seller, listing, key)).toEqual(created);
    expect(await listingsOf(seller.user_id)).toEqual([created.id]);
  });

  it('a refusal that says try again (409) frees the key; a final refusal (400) is kept as the answer', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listing = buildListing();
    const key = randomUUID();
    const busy = jest.spyOn(svc.app.get(ListingsService), 'create').mockRejectedValueOnce(new AppError('conflict', 'Busy right now; please try again'));
    try {
      expect((await failure(create(seller, listing, key))).status).toBe(409);
    } finally {
      busy.mockRestore();
    }
    const created = await create(seller, listing, key);
    expect(await listingsOf(seller.user_id)).toEqual([created.id]);

    const refusedKey = randomUUID();
    const refused = jest.spyOn(svc.app.get(ListingsService), 'create').mockRejectedValueOnce(new AppError('bad_request', 'Not like that'));
    try {
      expect((await failure(create(seller, listing, refusedKey))).status).toBe(400);
    } finally {
      refused.mockRestore();
    }
    // The same request under the same key meets the same refusal, without running again.
    expect((await failure(create(seller, listing, refusedKey))).status).toBe(400);
    expect(await listingsOf(seller.user_id)).toEqual([created.id]);
  });

  it('an expired key is a new request', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listing = buildListing();
    const key = randomUUID();
    const first = await create(seller, listing, key);
    await ds.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND key = $2`, [seller.user_id, key]);
    const second = await create(seller, listing, key);
    expect(second.id).not.toBe(first.id);
    expect((await listingsOf(seller.user_id)).sort()).toEqual([first.id, second.id].sort());
    expect(await create(seller, listing, key)).toEqual(second);
  });

  it('a malformed key is refused with 400 and changes nothing', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const refused = await failure(create(seller, buildListing(), 'bad key!'));
    expect(refused.status).toBe(400);
    expect(await listingsOf(seller.user_id)).toEqual([]);
  });

  it('a request whose caller has given up is not started (503) and does no work', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const envelope = (deadline: number): RpcEnvelope => ({
      meta: { request_id: randomUUID(), token: seller.token ?? null, deadline },
      data: { listing: buildListing(), screenshots: [] },
    });
    const late = await sendRaw(envelope(Date.now() - 1000)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(late).toMatchObject({ code: 'unavailable', status: 503 });
    expect(await listingsOf(seller.user_id)).toEqual([]);
    // The same request within its deadline runs.
    const created = (await sendRaw(envelope(Date.now() + 5000))) as { id: string };
    expect(await listingsOf(seller.user_id)).toEqual([created.id]);
  });

  it('a request that reaches a stalled service after its caller timed out does no work', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const impatient = new RpcClient({ natsUrl: svc.env.NATS_URL, name: 'impatient', timeoutMs: 100, subjectPrefix: svc.env.NATS_SUBJECT_PREFIX, bus: testBusIdentity(svc.env) });
    await impatient.connect();
    try {
      const pending = impatient.call(RPC.listings.create, { listing: buildListing(), screenshots: [] }, seller).then(
        () => null,
        (error: unknown) => error,
      );
      // The whole process stalls (a long GC pause, a blocked event loop) past the caller's 100 ms.
      const stalledUntil = Date.now() + 400;
      while (Date.now() < stalledUntil);
      expect(await pending).toMatchObject({ status: 503 });
      // A later request on the same subject is answered after the late one was taken off the queue.
      const marker = await testCaller(svc.env, { role: 'regular' });
      await svc.rpc.call(RPC.listings.create, { listing: buildListing(), screenshots: [] }, marker);
      expect(await listingsOf(seller.user_id)).toEqual([]);
    } finally {
      await impatient.close();
    }
  });
});
