import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { NatsConnection } from 'nats';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, deleteStream, isolatedEnv, testBusIdentity, type TestDatabase } from '../testing';
import { openServiceDatabase } from '../database/data-source';
import { KIT_MIGRATIONS } from '../database/kit-migrations';
import { connectNats } from '../nats/nats.connection';
import { ensureEventStream } from './jetstream';
import { appendEvent, signEventsWith } from './outbox.writer';
import { OutboxRelay } from './outbox.relay';

// Marking one chosen row published fails inside the batch transaction, as a lost connection or a timeout would.
class RefuseMarking1763800000009 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query(`
      CREATE FUNCTION refuse_marking() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.published_at IS NOT NULL AND NEW.payload->>'username' = 'cannot_mark' THEN
          RAISE EXCEPTION 'marking refused for the test';
        END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query('CREATE TRIGGER refuse_marking BEFORE UPDATE ON outbox FOR EACH ROW EXECUTE FUNCTION refuse_marking()');
  }
  async down() {}
}

describe('outbox relay failure counter', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let ds: DataSource;
  let nc: NatsConnection;
  let relay: OutboxRelay;

  const write = (username: string) =>
    ds.transaction((manager) =>
      appendEvent(manager, 'user.registered', { user_id: randomUUID(), username, email: `${username}@example.com`, created_at: new Date().toISOString() }),
    );
  const row = async (id: string) => (await ds.query('SELECT attempts, last_error, published_at FROM outbox WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    db = await createTestDatabase('outbox_failure');
    env = isolatedEnv(db.url);
    ds = signEventsWith(testBusIdentity(env, 'auth-service'), await openServiceDatabase({ url: db.url, schema: 'kit_test', entities: [], migrations: [...KIT_MIGRATIONS, RefuseMarking1763800000009] }));
    nc = await connectNats(env.NATS_URL, 'relay-under-test');
    await ensureEventStream(nc, { stream: env.EVENTS_STREAM, prefix: env.EVENTS_PREFIX });
    // Not started: each test drives the batches itself.
    relay = new OutboxRelay(ds, nc, { stream: env.EVENTS_STREAM, prefix: env.EVENTS_PREFIX });
  });

  afterAll(async () => {
    await nc?.close();
    await ds?.destroy();
    await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
    await db?.drop();
  });

  it('keeps the failure counter of a batch whose transaction rolls back, and adds to it on each failed batch', async () => {
    const before = await write('published_first');
    const stuck = await write('cannot_mark');

    await expect(relay.publishPending()).rejects.toThrow(/marking refused/);
    // The whole batch rolled back (the row before it is unpublished again), but the failure is counted.
    expect((await row(before)).published_at).toBeNull();
    expect(await row(stuck)).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/marking refused/), published_at: null });

    await expect(relay.publishPending()).rejects.toThrow(/marking refused/);
    expect((await row(stuck)).attempts).toBe(2);
    expect((await row(before)).attempts).toBe(0);
  });

  it('counts a failed publish on the row in hand once per batch, and leaves it unpublished', async () => {
    await ds.query("DELETE FROM outbox WHERE payload->>'username' = 'cannot_mark'");
    // What the first test left waiting goes out, so the new row is the first the next batch takes.
    expect((await relay.publishPending()).failure).toBeNull();
    const event = await write('nats_gone');
    // A relay whose NATS connection is closed: every publish fails.
    const closed = await connectNats(env.NATS_URL, 'closed-relay');
    await closed.close();
    const cutOff = new OutboxRelay(ds, closed, { stream: env.EVENTS_STREAM, prefix: env.EVENTS_PREFIX });
    const first = await cutOff.publishPending();
    expect(first.published).toBe(0);
    expect(first.failure).not.toBeNull();
    expect(await row(event)).toMatchObject({ attempts: 1, published_at: null });
    await cutOff.publishPending();
    expect((await row(event)).attempts).toBe(2);
    // The working relay then publishes it.
    expect((await relay.publishPending()).published).toBeGreaterThanOrEqual(1);
    expect((await row(event)).published_at).not.toBeNull();
  });

  it('marks every row a batch published, in one go, and keeps no one-time token of any of them', async () => {
    const ids = [await write('batch_one'), await write('batch_two'), await write('batch_three')];
    await ds.query(`UPDATE outbox SET payload = payload || '{"token": "one-time-secret"}'::jsonb WHERE id = ANY($1::uuid[])`, [ids]);

    expect(await relay.publishPending()).toEqual({ published: 3, failure: null });

    const rows = (await ds.query('SELECT published_at, payload FROM outbox WHERE id = ANY($1::uuid[])', [ids])) as { published_at: Date | null; payload: object }[];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.published_at).not.toBeNull();
      expect(row.payload).not.toHaveProperty('token');
    }
  });
});
