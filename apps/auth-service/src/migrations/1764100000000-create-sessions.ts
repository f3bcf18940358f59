import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Login sessions (ADR 0030): every access token names one; logging out ends it at once on every process. */
export class CreateSessions1764100000000 implements MigrationInterface {
  name = 'CreateSessions1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('login', 'impersonation')),
        impersonator_id uuid REFERENCES users (id) ON DELETE CASCADE,
        user_agent text,
        address text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX sessions_user_live_idx ON sessions (user_id, created_at DESC) WHERE revoked_at IS NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sessions');
  }
}
