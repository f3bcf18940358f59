import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AckPolicy, JSONCodec, type NatsConnection } from 'nats';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { deadLetterSubject, durableName, type EventEnvelope } from '@market/contracts';
import { createTestDatabase, deleteStream, eventually, isolatedEnv, type TestDatabase } from '../testing';
import { openServiceDatabase } from '../database/data-source';
import { CreateEventTables1763800000000 } from '../database/1763800000000-create-event-tables';
import { connectNats } from '../nats/nats.connection';
import { consumerLimits, streamLimits } from '../config/growth-env';
import { ensureEventStream, eventSubject } from './jetstream';
import { EventConsumers } from './event-consumer';
import { countDeadLetters, deadLetterCounts } from './dead-letters';

class CreateDeliveries1763800000009 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE deliveries (event_id uuid NOT NULL, username text NOT NULL)');
  }
  async down() {}
}

describe('a poison event (real JetStream)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let ds: DataSource;
  let nc: NatsConnection;
  let consumers: EventConsumers;
  const attempts = new Map<string, number>();
  // Small limits through the same config variables a deployment sets.
  const limits = consumerLimits({ EVENTS_MAX_DELIVER: 3, EVENTS_RETRY_DELAY_MS: 50, EVENTS_MAX_RETRY_DELAY_MS: 100 });
  const stream = () => ({ stream: env.EVENTS_STREAM, prefix: env.EVENTS_PREFIX });
  const durable = durableName('kit-test', 'user.registered');

  const publish = async (username: string) => {
    const envelope: EventEnvelope = {
      id: randomUUID(),
      name: 'user.registered',
      occurred_at: new Date().toISOString(),
      request_id: null,
      payload: { user_id: randomUUID(), username, email: `${username}@example.com`, created_at: new Date().toISOString() },
    };
    await nc.jetstream().publish(eventSubject(env.EVENTS_PREFIX, 'user.registered'), JSONCodec().encode(envelope), { msgID: envelope.id });
    return envelope.id;
  };
  const deliveries = async (eventId: string) => Number((await ds.query('SELECT count(*) AS n FROM deliveries WHERE event_id = $1', [eventId]))[0].n);

  beforeAll(async () => {
    db = await createTestDatabase('poison');
    env = isolatedEnv(db.url);
    ds = await openServiceDatabase({ url: db.url, schema: 'kit_test', entities: [], migrations: [CreateEventTables1763800000000, CreateDeliveries1763800000009] });
    nc = await connectNats(env.NATS_URL, 'consumer-under-test');
    await ensureEventStream(nc, stream(), streamLimits({}));
    // The durable already exists from before delivery limits (no max_deliver): subscribing brings it up to date.
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add(env.EVENTS_STREAM, { durable_name: durable, ack_policy: AckPolicy.Explicit, filter_subject: eventSubject(env.EVENTS_PREFIX, 'user.registered') });
    consumers = new EventConsumers(ds, nc, stream(), 'kit-test', limits);
    await consumers.subscribe('user.registered', async (event, manager) => {
      attempts.set(event.id, (attempts.get(event.id) ?? 0) + 1);
      if (event.payload.username === 'poison') throw new Error('this handler always fails on poison');
      await manager.query('INSERT INTO deliveries (event_id, username) VALUES ($1, $2)', [event.id, event.payload.username]);
    });
  });

  afterAll(async () => {
    await consumers?.stop();
    await nc?.close();
    await ds?.destroy();
    await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
    await db?.drop();
  });

  it('gives the existing durable consumer a delivery limit', async () => {
    const info = await (await nc.jetstreamManager()).consumers.info(env.EVENTS_STREAM, durable);
    // EVENTS_MAX_DELIVER, plus the few JetStream allows for a failed dead-lettering.
    expect(info.config.max_deliver).toBe(6);
  });

  it('moves an event that fails max_deliver times to the dead-letter subject, and retries it no more', async () => {
    expect(await countDeadLetters(nc, stream())).toBe(0);
    const poison = await publish('poison');

    await eventually(async () => expect(await countDeadLetters(nc, stream())).toBe(1), 20_000, 100);
    expect(await deadLetterCounts(nc, stream())).toEqual({ 'kit-test': 1 });
    expect(attempts.get(poison)).toBe(3);
    const jsm = await nc.jetstreamManager();
    const copy = await jsm.streams.getMessage(env.EVENTS_STREAM, { last_by_subj: deadLetterSubject(env.EVENTS_PREFIX, 'kit-test') });
    expect(copy.header.get('Market-Event-Id')).toBe(poison);
    expect(copy.header.get('Market-Problem')).toBe('failed 3 deliveries: this handler always fails on poison');
    expect(JSON.parse(new TextDecoder().decode(copy.data)).payload.username).toBe('poison');

    // A marker published after it is handled; by then a retry of the poison (50-100 ms apart) would have come.
    const marker = await publish('after_poison');
    await eventually(async () => expect(await deliveries(marker)).toBe(1), 20_000, 100);
    expect(attempts.get(poison)).toBe(3);
    expect(await deliveries(poison)).toBe(0);
    expect(await ds.query('SELECT 1 FROM processed_events WHERE event_id = $1', [poison])).toEqual([]);
    // Acknowledged: JetStream has nothing of it left to deliver.
    const consumer = await jsm.consumers.info(env.EVENTS_STREAM, durable);
    expect(consumer.num_ack_pending).toBe(0);
    expect(consumer.num_pending).toBe(0);
    expect(await countDeadLetters(nc, stream())).toBe(1);
  });
});
