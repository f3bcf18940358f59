import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the retention job deletes by (ADR 0046): published outbox rows by publication time, processed events by
 * when they were processed. Built CONCURRENTLY (outside a transaction) so a large existing table keeps taking writes.
 */
export class RetentionIndexes1763800000002 implements MigrationInterface {
  name = 'RetentionIndexes1763800000002';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_published_at_idx ON outbox (published_at) WHERE published_at IS NOT NULL');
    await queryRunner.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS processed_events_processed_at_idx ON processed_events (processed_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS processed_events_processed_at_idx');
    await queryRunner.query('DROP INDEX IF EXISTS outbox_published_at_idx');
  }
}
