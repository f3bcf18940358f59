import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The retention job deletes the email log by when each was sent (ADR 0046); built without blocking writes. */
export class EmailsRetention1764560000000 implements MigrationInterface {
  name = 'EmailsRetention1764560000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS emails_sent_at_idx ON emails (sent_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS emails_sent_at_idx');
  }
}
