import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { JSONCodec, type NatsConnection } from 'nats';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { deadLetterSubject, type EventEnvelope } from '@market/contracts';
import { createTestDatabase, deleteStream, eventually, isolatedEnv, startTcpProxy, testBusIdentity, type TcpProxy, type TestDatabase } from '../testing';
import { eventHeaders, eventSignature } from '../bus/bus-signatures';
import { openServiceDatabase } from '../database/data-source';
import { KIT_MIGRATIONS } from '../database/kit-migrations';
import { connectNats } from '../nats/nats.connection';
import { ensureEventStream, eventSubject } from './jetstream';
import { appendEvent, signEventsWith } from './outbox.writer';
import { OutboxRelay } from './outbox.relay';
import { EventConsumers } from './event-consumer';

class CreateDeliveries1763800000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE deliveries (event_id uuid NOT NULL, username text NOT NULL)');
  }
  async down() {}
}

describe('outbox relay and idempotent consumers', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let ds: DataSource;
  let proxy: TcpProxy;
  let relayNats: NatsConnection;
  let consumerNats: NatsConnection;
  let relay: OutboxRelay;
  let consumers: EventConsumers;

  const stream = () => ({ stream: env.EVENTS_STREAM, prefix: env.EVENTS_PREFIX });
  const deliveries = async (eventId: string) =>
    Number((await ds.query('SELECT count(*) AS n FROM deliveries WHERE event_id = $1', [eventId]))[0].n);
  const writeUserRegistered = (username: string) =>
    ds.transaction((manager) =>
      appendEvent(manager, 'user.registered', { user_id: randomUUID(), username, email: `${username}@example.com`, created_at: new Date().toISOString() }),
    );

  beforeAll(async () => {
    db = await createTestDatabase('outbox');
    env = isolatedEnv(db.url);
    // Its events are written as auth-service, user.registered's declared writer, would write them (D25).
    ds = signEventsWith(
      testBusIdentity(env, 'auth-service'),
      await openServiceDatabase({ url: db.url, schema: 'kit_test', entities: [], migrations: [...KIT_MIGRATIONS, CreateDeliveries1763800000001] }),
    );
    const natsUrl = new URL(env.NATS_URL);
    proxy = await startTcpProxy(natsUrl.hostname, Number(natsUrl.port || 4222));
    relayNats = await connectNats(proxy.url('nats'), 'relay-under-test');
    consumerNats = await connectNats(env.NATS_URL, 'consumer-under-test');
    await ensureEventStream(consumerNats, stream());
    relay = new OutboxRelay(ds, relayNats, stream());
    consumers = new EventConsumers(ds, consumerNats, stream(), 'kit-test', testBusIdentity(env, 'notifications-service'));
    await consumers.subscribe('user.registered', async (event, manager) => {
      await manager.query('INSERT INTO deliveries (event_id, username) VALUES ($1, $2)', [event.id, event.payload.username]);
    });
    relay.start();
  });

  afterAll(async () => {
    await consumers?.stop();
    await relay?.stop();
    await relayNats?.close();
    await consumerNats?.close();
    await proxy?.close();
    await ds?.destroy();
    await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
    await db?.drop();
  });

  it('delivers an event committed with its change', async () => {
    const eventId = await writeUserRegistered('online_user');
    relay.kick();
    await eventually(async () => expect(await deliveries(eventId)).toBe(1));
    const [row] = await ds.query('SELECT published_at FROM outbox WHERE id = $1', [eventId]);
    expect(row.published_at).not.toBeNull();
  });

  it('refuses to write an event outside a transaction', async () => {
    await expect(
      appendEvent(ds.manager, 'user.registered', { user_id: randomUUID(), username: 'x', email: 'x@example.com', created_at: '' }),
    ).rejects.toThrow(/inside a transaction/);
  });

  it('keeps an event written while NATS is unreachable and delivers it exactly once after NATS returns', async () => {
    await proxy.pause();
    const eventId = await writeUserRegistered('offline_user');
    relay.kick();
    // The relay tries (and fails) while NATS is cut off: the row counts the attempt and stays unpublished.
    await eventually(async () => {
      const [pending] = await ds.query('SELECT published_at, attempts FROM outbox WHERE id = $1', [eventId]);
      expect(pending.attempts).toBeGreaterThan(0);
      expect(pending.published_at).toBeNull();
    }, 20_000, 200);
    expect(await deliveries(eventId)).toBe(0);

    await proxy.resume();
    await eventually(async () => expect(await deliveries(eventId)).toBe(1), 20_000, 200);
    // Whatever the client buffered while disconnected is deduplicated by message id: a marker written after it
    // arrives, and the event still counts once.
    const marker = await writeUserRegistered('after_reconnect');
    relay.kick();
    await eventually(async () => expect(await deliveries(marker)).toBe(1), 20_000, 200);
    expect(await deliveries(eventId)).toBe(1);
  });

  it('applies a redelivered event only once', async () => {
    const eventId = await writeUserRegistered('duplicate_user');
    relay.kick();
    await eventually(async () => expect(await deliveries(eventId)).toBe(1));
    // The message as published, sealed and signed, sent again: the outbox keeps neither once it is out (ADR 0066).
    const jsm = await consumerNats.jetstreamManager();
    const published = await jsm.streams.getMessage(env.EVENTS_STREAM, { last_by_subj: eventSubject(env.EVENTS_PREFIX, 'user.registered') });
    expect((published.json() as EventEnvelope).id).toBe(eventId);
    // The email is sealed for notifications-service on the stream, and gone from the outbox once published.
    expect(published.string()).not.toContain('duplicate_user@example.com');
    await eventually(async () => expect((await ds.query('SELECT payload FROM outbox WHERE id = $1', [eventId]))[0].payload).toEqual({ user_id: expect.any(String), username: 'duplicate_user', created_at: expect.any(String) }));
    // A different message id gets past JetStream's dedup window: only processed_events can stop it.
    await consumerNats.jetstream().publish(published.subject, published.data, { msgID: randomUUID(), headers: published.header });
    // The consumer takes messages in order: once a marker published after the copy is applied, the copy was handled.
    const marker = await writeUserRegistered('after_duplicate');
    relay.kick();
    await eventually(async () => expect(await deliveries(marker)).toBe(1));
    expect(await deliveries(eventId)).toBe(1);
  });

  it('moves malformed events to the dead-letter subject once, and goes on with the next event', async () => {
    const publish = (data: Uint8Array) =>
      consumerNats.jetstream().publish(eventSubject(env.EVENTS_PREFIX, 'user.registered'), data, { msgID: randomUUID() });
    const missingField = randomUUID();
    await publish(
      JSONCodec().encode({ id: missingField, name: 'user.registered', occurred_at: new Date().toISOString(), request_id: null, payload: { user_id: randomUUID(), email: 'x@example.com', created_at: new Date().toISOString() } }),
    );
    await publish(new TextEncoder().encode('this is not json'));
    // A well-formed event of another name on this subject: the user.registered handler could never apply it.
    const otherName = randomUUID();
    await publish(JSONCodec().encode({ id: otherName, name: 'user.deleted', occurred_at: new Date().toISOString(), request_id: null, payload: { user_id: randomUUID(), deleted_by: randomUUID() } }));
    // A malformed message holding a one-time token: the dead-letter copy must not keep it (ADR 0008).
    const withToken = randomUUID();
    await publish(JSONCodec().encode({ id: withToken, name: 'user.registered', occurred_at: new Date().toISOString(), request_id: null, payload: { user_id: randomUUID(), token: 'one-time-secret-token' } }));
    const marker = await writeUserRegistered('after_poison');
    relay.kick();
    await eventually(async () => expect(await deliveries(marker)).toBe(1));
    expect(await deliveries(missingField)).toBe(0);

    const jsm = await consumerNats.jetstreamManager();
    const dead = deadLetterSubject(env.EVENTS_PREFIX, 'kit-test');
    const info = await jsm.streams.info(env.EVENTS_STREAM, { subjects_filter: dead });
    expect(info.state.subjects?.[dead]).toBe(4);
    const copies = [];
    for (let seq = 1, i = 0; i < 4; i += 1) {
      const copy = await jsm.streams.getMessage(env.EVENTS_STREAM, { seq, next_by_subj: dead } as never);
      copies.push(copy);
      seq = copy.seq + 1;
    }
    expect(copies.map((copy) => copy.header.get('Market-Event-Id'))).toEqual([missingField, 'unknown', otherName, withToken]);
    expect(copies[0].header.get('Market-Problem')).toMatch(/user\.registered payload/);
    expect(copies[0].header.get('Market-Consumer')).toBe('kit-test');
    expect(copies[2].header.get('Market-Problem')).toBe('a user.deleted event on the user.registered subject');
    expect(new TextDecoder().decode(copies[3].data)).not.toContain('one-time-secret-token');
    expect(JSON.parse(new TextDecoder().decode(copies[3].data)).payload).toEqual({ user_id: expect.any(String) });
    // Both were acknowledged: nothing is waiting to be redelivered.
    const consumer = await jsm.consumers.info(env.EVENTS_STREAM, 'kit-test-user_registered');
    expect(consumer.num_ack_pending).toBe(0);
    expect(consumer.num_pending).toBe(0);
  });

  it('dead-letters an event not signed by its declared writer and applies none of them (D25)', async () => {
    const jsm = await consumerNats.jetstreamManager();
    const dead = deadLetterSubject(env.EVENTS_PREFIX, 'kit-test');
    const deadBefore = (await jsm.streams.info(env.EVENTS_STREAM, { subjects_filter: dead })).state.subjects?.[dead] ?? 0;
    const forged = (username: string): EventEnvelope<'user.registered'> => ({
      id: randomUUID(),
      name: 'user.registered',
      occurred_at: new Date().toISOString(),
      request_id: null,
      payload: { user_id: randomUUID(), username, email: `${username}@example.com`, created_at: new Date().toISOString() },
    });
    const send = (event: EventEnvelope, headers?: ReturnType<typeof eventHeaders>) =>
      consumerNats.jetstream().publish(eventSubject(env.EVENTS_PREFIX, event.name), JSONCodec().encode(event), { msgID: randomUUID(), headers });
    const unsigned = forged('forged_unsigned');
    await send(unsigned);
    // Signed, but by a process that does not write user.registered: a stolen listings-service key.
    const wrongWriter = forged('forged_by_listings');
    const byListings = eventSignature(testBusIdentity(env, 'listings-service').signer, wrongWriter);
    await send(wrongWriter, eventHeaders(byListings.sender, byListings.signature));
    // A genuine signature over a payload changed on the way.
    const tampered = forged('forged_tampered');
    const genuine = eventSignature(testBusIdentity(env, 'auth-service').signer, tampered);
    await send({ ...tampered, payload: { ...tampered.payload, username: 'someone_else' } }, eventHeaders(genuine.sender, genuine.signature));
    // Claims auth-service but carries another key's signature.
    const claimed = forged('forged_claimed');
    const other = eventSignature(testBusIdentity(isolatedEnv('postgres://unused'), 'auth-service').signer, claimed);
    await send(claimed, eventHeaders('auth-service', other.signature));

    const marker = await writeUserRegistered('after_forgeries');
    relay.kick();
    await eventually(async () => expect(await deliveries(marker)).toBe(1));
    for (const event of [unsigned, wrongWriter, tampered, claimed]) expect(await deliveries(event.id)).toBe(0);
    const info = await jsm.streams.info(env.EVENTS_STREAM, { subjects_filter: dead });
    expect(info.state.subjects?.[dead]).toBe(deadBefore + 4);
    const problems: string[] = [];
    for (let seq = 1, i = 0; i < deadBefore + 4; i += 1) {
      const copy = await jsm.streams.getMessage(env.EVENTS_STREAM, { seq, next_by_subj: dead } as never);
      if (i >= deadBefore) problems.push(copy.header.get('Market-Problem'));
      seq = copy.seq + 1;
    }
    expect(problems).toEqual([
      'not believed: unsigned event',
      'not believed: user.registered signed by listings-service, which does not write it',
      'not believed: not signed by auth-service',
      'not believed: not signed by auth-service',
    ]);
  });

  it('refuses to write an event whose payload does not match its schema', async () => {
    await expect(
      ds.transaction((manager) => appendEvent(manager, 'user.registered', { user_id: randomUUID(), username: 'x' } as never)),
    ).rejects.toThrow(/does not match its schema/);
  });
});
