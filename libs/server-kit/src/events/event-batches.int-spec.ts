import type { MigrationInterface, QueryRunner } from 'typeorm';
import { durableName, type EventEnvelope } from '@market/contracts';
import { eventually } from '../testing';
import { consumerLimits } from '../config/growth-env';
import { EventConsumers } from './event-consumer';
import { openEventRig, userRegistered, type EventRig } from './testing/event-rig';
import { countDeadLetters } from './dead-letters';

class CreateBatchDeliveries1763800000010 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE batch_deliveries (event_id uuid NOT NULL, username text NOT NULL, batch int NOT NULL, place int NOT NULL)');
  }
  async down() {}
}

/** Batched consumers (ADR 0057) on a real JetStream and PostgreSQL: events taken together, each applied once, in order. */
describe('event batches (real JetStream)', () => {
  let rig: EventRig;
  let consumers: EventConsumers;
  const limits = consumerLimits({ EVENTS_MAX_DELIVER: 3, EVENTS_RETRY_DELAY_MS: 50, EVENTS_MAX_RETRY_DELAY_MS: 100 });
  const batchSizes: number[] = [];
  const envelope = userRegistered;
  const publish = (event: EventEnvelope<'user.registered'>) => rig.publish(event);
  const delivered = async (): Promise<Array<{ event_id: string; username: string; batch: number; place: number }>> =>
    rig.ds.query('SELECT event_id, username, batch, place FROM batch_deliveries ORDER BY batch, place');

  beforeAll(async () => {
    rig = await openEventRig('batches', [CreateBatchDeliveries1763800000010]);
  });

  afterAll(async () => {
    await consumers?.stop();
    await rig?.stop();
  });

  it('takes what is waiting in batches, applies each event once in stream order, skips redeliveries, and handles a lone event at once', async () => {
    // Waiting before anyone consumes: the first pull brings many at once. Every fifth is then delivered again.
    const events = Array.from({ length: 40 }, (_, i) => envelope(`user_${String(i).padStart(2, '0')}`));
    for (const event of events) await publish(event);
    for (const event of events.filter((_, i) => i % 5 === 0)) await publish(event);

    consumers = new EventConsumers(rig.ds, rig.nc, rig.stream, 'kit-batches', rig.bus, limits);
    await consumers.subscribeBatch('user.registered', async (batch, manager) => {
      batchSizes.push(batch.length);
      if (batch.some((event) => event.payload.username === 'poison')) throw new Error('this handler always fails on poison');
      for (const [place, event] of batch.entries()) {
        await manager.query('INSERT INTO batch_deliveries (event_id, username, batch, place) VALUES ($1, $2, $3, $4)', [event.id, event.payload.username, batchSizes.length, place]);
      }
    });

    await eventually(async () => expect((await delivered()).length).toBe(40), 20_000);
    const rows = await delivered();
    // Nothing lost, nothing twice, in the order published.
    expect(rows.map((row) => row.event_id)).toEqual(events.map((event) => event.id));
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
    expect(batchSizes.length).toBeLessThan(40);

    // A lone event on a quiet stream does not wait for company.
    const lone = await publish(envelope('lone'));
    await eventually(async () => expect((await delivered()).map((row) => row.event_id)).toContain(lone), 10_000, 50);
    const durable = durableName('kit-batches', 'user.registered');
    await eventually(async () => {
      const info = await (await rig.nc.jetstreamManager()).consumers.info(rig.env.EVENTS_STREAM, durable);
      expect([info.num_ack_pending, info.num_pending]).toEqual([0, 0]);
    });
    expect((await delivered()).length).toBe(41);
  });

  it('retries a failed batch event by event: the others are applied, the poison alone is dead-lettered', async () => {
    const before = (await delivered()).length;
    const deadBefore = await countDeadLetters(rig.nc, rig.stream);
    // Published while the consumer is busy with nothing: they arrive close together and may share batches.
    const around = [envelope('before_poison'), envelope('poison'), envelope('after_poison')];
    await Promise.all(around.map((event) => publish(event)));

    await eventually(async () => expect(await countDeadLetters(rig.nc, rig.stream)).toBe(deadBefore + 1), 20_000);
    await eventually(async () => expect((await delivered()).length).toBe(before + 2));
    const names = (await delivered()).slice(before).map((row) => row.username);
    expect(names.sort()).toEqual(['after_poison', 'before_poison']);
    expect(await rig.ds.query('SELECT 1 FROM processed_events WHERE event_id = $1', [around[1].id])).toEqual([]);
  });
});
