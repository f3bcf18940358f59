import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The trace context an event was written in, so its publication and consumers continue that trace (ADR 0049). */
export class OutboxTraceparent1763800000001 implements MigrationInterface {
  name = 'OutboxTraceparent1763800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox ADD COLUMN traceparent text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox DROP COLUMN traceparent');
  }
}
