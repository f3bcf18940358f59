import { randomUUID } from 'node:crypto';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { openServiceDatabase } from '../database/data-source';
import { CreateEventTables1763800000000 } from '../database/1763800000000-create-event-tables';
import { CreateIdempotencyKeys1763800000003 } from '../database/1763800000003-create-idempotency-keys';
import { RetentionIndexes1763800000002 } from '../database/1763800000002-retention-indexes';
import { serviceRetention } from './retention.sweep';

const DAY_MS = 24 * 60 * 60 * 1000;

class CreateProviderEvents1763800000009 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE provider_events (id text PRIMARY KEY, received_at timestamptz NOT NULL DEFAULT now())');
    await queryRunner.query('CREATE TABLE audit (id bigserial PRIMARY KEY, at timestamptz NOT NULL)');
  }
  async down() {}
}

describe('retention job', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const count = async (sql: string) => Number((await ds.query(sql))[0].n);

  beforeAll(async () => {
    db = await createTestDatabase('retention');
    ds = await openServiceDatabase({
      url: db.url,
      schema: 'kit_test',
      entities: [],
      migrations: [CreateEventTables1763800000000, RetentionIndexes1763800000002, CreateIdempotencyKeys1763800000003, CreateProviderEvents1763800000009],
    });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('deletes published outbox rows, processed events and the service tables past their periods, in batches, and nothing else', async () => {
    const outbox = async (publishedDaysAgo: number | null, occurredDaysAgo: number) =>
      ds.query(`INSERT INTO outbox (id, name, payload, occurred_at, published_at) VALUES ($1, 'user.registered', '{}', $2, $3)`, [
        randomUUID(),
        ago(occurredDaysAgo),
        publishedDaysAgo === null ? null : ago(publishedDaysAgo),
      ]);
    await outbox(8, 8);
    await outbox(6, 30);
    // Never published, however old: the relay still owes it.
    await outbox(null, 30);
    // 2,500 processed events past 14 + 2 days (more than two batches), and some still inside the window.
    await ds.query(`INSERT INTO processed_events (event_id, consumer, processed_at) SELECT gen_random_uuid(), 'kit-test', $1 FROM generate_series(1, 2500)`, [ago(17)]);
    await ds.query(`INSERT INTO processed_events (event_id, consumer, processed_at) SELECT gen_random_uuid(), 'kit-test', $1 FROM generate_series(1, 5)`, [ago(15)]);
    await ds.query(`INSERT INTO provider_events (id, received_at) VALUES ('evt_old', $1), ('evt_new', $2)`, [ago(91), ago(89)]);
    await ds.query(`INSERT INTO audit (at) VALUES ($1)`, [ago(4000)]);
    // One Idempotency-Key expired an hour before `now`, one still answering retries.
    await ds.query(
      `INSERT INTO idempotency_keys (user_id, subject, key, fingerprint, expires_at) VALUES ('u1', 'bidding.place', 'k-old', 'f', $1), ('u1', 'bidding.place', 'k-new', 'f', $2)`,
      [new Date(now.getTime() - 3_600_000), new Date(now.getTime() + 3_600_000)],
    );

    const retention = serviceRetention(ds, { EVENTS_MAX_AGE_DAYS: 14, RETENTION_PROCESSED_EVENTS_MARGIN_DAYS: 2 }, (periods) => [
      { table: 'provider_events', column: 'received_at', keepMs: periods.providerEventsMs },
    ]);
    expect(await retention.run(now)).toEqual({ outbox: 1, processed_events: 2500, idempotency_keys: 1, provider_events: 1 });
    expect(await ds.query(`SELECT key FROM idempotency_keys`)).toEqual([{ key: 'k-new' }]);

    expect(await count(`SELECT count(*) AS n FROM outbox WHERE published_at IS NULL`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM outbox WHERE published_at IS NOT NULL`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM processed_events`)).toBe(5);
    expect(await ds.query(`SELECT id FROM provider_events`)).toEqual([{ id: 'evt_new' }]);
    expect(await count(`SELECT count(*) AS n FROM audit`)).toBe(1);
    // A second run finds nothing more.
    expect(await retention.run(now)).toEqual({ outbox: 0, processed_events: 0, idempotency_keys: 0, provider_events: 0 });
  });

  it('deletes by an index, not by reading the whole table', async () => {
    await ds.query('ANALYZE outbox');
    await ds.query('ANALYZE processed_events');
    // On one connection, with sequential scans priced out: the plan shows whether the index can serve the delete.
    const plans = await ds.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      const plan = async (sql: string) => (await manager.query(`EXPLAIN ${sql}`)).map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      return [await plan('SELECT ctid FROM outbox WHERE published_at < now() LIMIT 1000'), await plan('SELECT ctid FROM processed_events WHERE processed_at < now() LIMIT 1000')];
    });
    expect(plans[0]).toMatch(/outbox_published_at_idx/);
    expect(plans[1]).toMatch(/processed_events_processed_at_idx/);
  });

  it('refuses a rule naming something other than a plain table and column', () => {
    expect(() => serviceRetention(ds, {}, () => [{ table: 'emails; DROP TABLE audit', column: 'sent_at', keepMs: DAY_MS }])).toThrow(/Invalid retention rule/);
  });
});
