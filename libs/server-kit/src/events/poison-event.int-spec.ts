import { AckPolicy } from 'nats';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { deadLetterSubject, durableName } from '@market/contracts';
import { eventually } from '../testing';
import { consumerLimits } from '../config/growth-env';
import { eventSubject } from './jetstream';
import { EventConsumers } from './event-consumer';
import { openEventRig, userRegistered, type EventRig } from './testing/event-rig';
import { countDeadLetters, deadLetterCounts } from './dead-letters';

class CreateDeliveries1763800000009 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE deliveries (event_id uuid NOT NULL, username text NOT NULL)');
  }
  async down() {}
}

describe('a poison event (real JetStream)', () => {
  let rig: EventRig;
  let consumers: EventConsumers;
  const attempts = new Map<string, number>();
  // Small limits through the same config variables a deployment sets.
  const limits = consumerLimits({ EVENTS_MAX_DELIVER: 3, EVENTS_RETRY_DELAY_MS: 50, EVENTS_MAX_RETRY_DELAY_MS: 100 });
  const durable = durableName('kit-test', 'user.registered');

  const publish = (username: string) => {
    const event = userRegistered(username);
    return rig.publish(event, event.id);
  };
  const deliveries = async (eventId: string) => Number((await rig.ds.query('SELECT count(*) AS n FROM deliveries WHERE event_id = $1', [eventId]))[0].n);

  beforeAll(async () => {
    rig = await openEventRig('poison', [CreateDeliveries1763800000009]);
    // The durable already exists from before delivery limits (no max_deliver): subscribing brings it up to date.
    const jsm = await rig.nc.jetstreamManager();
    await jsm.consumers.add(rig.env.EVENTS_STREAM, { durable_name: durable, ack_policy: AckPolicy.Explicit, filter_subject: eventSubject(rig.env.EVENTS_PREFIX, 'user.registered') });
    consumers = new EventConsumers(rig.ds, rig.nc, rig.stream, 'kit-test', rig.bus, limits);
    await consumers.subscribe('user.registered', async (event, manager) => {
      attempts.set(event.id, (attempts.get(event.id) ?? 0) + 1);
      if (event.payload.username === 'poison') throw new Error('this handler always fails on poison');
      await manager.query('INSERT INTO deliveries (event_id, username) VALUES ($1, $2)', [event.id, event.payload.username]);
    });
  });

  afterAll(async () => {
    await consumers?.stop();
    await rig?.stop();
  });

  it('gives the existing durable consumer a delivery limit', async () => {
    const info = await (await rig.nc.jetstreamManager()).consumers.info(rig.env.EVENTS_STREAM, durable);
    // EVENTS_MAX_DELIVER, plus the few JetStream allows for a failed dead-lettering.
    expect(info.config.max_deliver).toBe(6);
  });

  it('moves an event that fails max_deliver times to the dead-letter subject, and retries it no more', async () => {
    expect(await countDeadLetters(rig.nc, rig.stream)).toBe(0);
    const poison = await publish('poison');

    await eventually(async () => expect(await countDeadLetters(rig.nc, rig.stream)).toBe(1), 20_000, 100);
    expect(await deadLetterCounts(rig.nc, rig.stream)).toEqual({ 'kit-test': 1 });
    expect(attempts.get(poison)).toBe(3);
    const jsm = await rig.nc.jetstreamManager();
    const copy = await jsm.streams.getMessage(rig.env.EVENTS_STREAM, { last_by_subj: deadLetterSubject(rig.env.EVENTS_PREFIX, 'kit-test') });
    expect(copy.header.get('Market-Event-Id')).toBe(poison);
    expect(copy.header.get('Market-Problem')).toBe('failed 3 deliveries: this handler always fails on poison');
    expect(JSON.parse(new TextDecoder().decode(copy.data)).payload.username).toBe('poison');

    // A marker published after it is handled; by then a retry of the poison (50-100 ms apart) would have come.
    const marker = await publish('after_poison');
    await eventually(async () => expect(await deliveries(marker)).toBe(1), 20_000, 100);
    expect(attempts.get(poison)).toBe(3);
    expect(await deliveries(poison)).toBe(0);
    expect(await rig.ds.query('SELECT 1 FROM processed_events WHERE event_id = $1', [poison])).toEqual([]);
    // Acknowledged: JetStream has nothing of it left to deliver.
    const consumer = await jsm.consumers.info(rig.env.EVENTS_STREAM, durable);
    expect(consumer.num_ack_pending).toBe(0);
    expect(consumer.num_pending).toBe(0);
    expect(await countDeadLetters(rig.nc, rig.stream)).toBe(1);
  });
});
