import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The retention job deletes provider events by when they were received (ADR 0046); built without blocking writes. */
export class ProviderEventsRetention1764560000000 implements MigrationInterface {
  name = 'ProviderEventsRetention1764560000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS provider_events_received_at_idx ON provider_events (received_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS provider_events_received_at_idx');
  }
}
