import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Keys a service has seen (ADR 0047): one row per user, subject and key, claimed before the write runs
 * and holding its first answer until it expires.
 */
export class CreateIdempotencyKeys1763800000003 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763800000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        user_id text NOT NULL,
        subject text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done')),
        reply jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, subject, key)
      )`);
    await queryRunner.query('CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE idempotency_keys');
  }
}
