import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One-time tokens for email verification and password reset (stored hashed), and deleted accounts (D17). */
export class CreateAccountTokens1763800300000 implements MigrationInterface {
  name = 'CreateAccountTokens1763800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE account_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
        token_hash text NOT NULL UNIQUE,
        email text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX account_tokens_user_purpose_idx ON account_tokens (user_id, purpose)');
    await queryRunner.query('ALTER TABLE users DROP CONSTRAINT users_status_check');
    await queryRunner.query(`ALTER TABLE users ADD CONSTRAINT users_status_check CHECK (status IN ('active', 'suspended', 'deleted'))`);
    await queryRunner.query('ALTER TABLE users ADD COLUMN deleted_at timestamptz');
    await queryRunner.query('CREATE INDEX users_created_at_idx ON users (created_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX users_created_at_idx');
    await queryRunner.query('ALTER TABLE users DROP COLUMN deleted_at');
    await queryRunner.query('ALTER TABLE users DROP CONSTRAINT users_status_check');
    await queryRunner.query(`ALTER TABLE users ADD CONSTRAINT users_status_check CHECK (status IN ('active', 'suspended'))`);
    await queryRunner.query('DROP TABLE account_tokens');
  }
}
