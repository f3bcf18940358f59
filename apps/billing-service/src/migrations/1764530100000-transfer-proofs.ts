import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transfer verification (ADR 0040): the buyer's own token per held invoice, the pacing of its checks, and on the
 * invoice when (and how) the token showed on the site's domain.
 */
export class TransferProofs1764530100000 implements MigrationInterface {
  name = 'TransferProofs1764530100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE transfer_proofs (
        invoice_id uuid PRIMARY KEY REFERENCES invoices (id) ON DELETE CASCADE,
        buyer_id uuid NOT NULL,
        token text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_checked_at timestamptz,
        window_started_at timestamptz,
        checks_in_window integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`
      ALTER TABLE invoices
        ADD COLUMN transfer_verified_at timestamptz,
        ADD COLUMN transfer_verified_method text CHECK (transfer_verified_method IN ('dns', 'file'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE invoices DROP COLUMN transfer_verified_at, DROP COLUMN transfer_verified_method');
    await queryRunner.query('DROP TABLE transfer_proofs');
  }
}
