import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A third one-time token purpose: the link mailed to the old address after an email change undoes it (ADR 0034). */
export class UndoEmailChangeTokens1764300000000 implements MigrationInterface {
  name = 'UndoEmailChangeTokens1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check');
    await queryRunner.query(
      `ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('verify_email', 'reset_password', 'undo_email_change'))`,
    );
    // Pending undo links are looked up by the address they were sent to: it stays reserved while one is live.
    await queryRunner.query(
      `CREATE INDEX account_tokens_pending_undo_idx ON account_tokens (lower(email)) WHERE purpose = 'undo_email_change' AND used_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX account_tokens_pending_undo_idx');
    await queryRunner.query(`DELETE FROM account_tokens WHERE purpose = 'undo_email_change'`);
    await queryRunner.query('ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check');
    await queryRunner.query(`ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('verify_email', 'reset_password'))`);
  }
}
