import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The outbox and processed-event tables every service keeps in its own schema. */
export class CreateEventTables1763800000000 implements MigrationInterface {
  name = 'CreateEventTables1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        name text NOT NULL,
        payload jsonb NOT NULL,
        request_id text,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await queryRunner.query('CREATE INDEX outbox_unpublished_idx ON outbox (seq) WHERE published_at IS NULL');
    await queryRunner.query(`
      CREATE TABLE processed_events (
        event_id uuid NOT NULL,
        consumer text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (event_id, consumer)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE processed_events');
    await queryRunner.query('DROP TABLE outbox');
  }
}
