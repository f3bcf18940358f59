import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transfer checklist and disputes (ADR 0039): the invoice keeps when the seller started the transfer, when the
 * buyer confirmed receipt and when an admin's plain release began (a dispute can no longer be opened after it); the
 * `disputed` status joins the invoice's states. Disputes are rows of their own, at most one open per invoice.
 */
export class TransferAndDisputes1764520000000 implements MigrationInterface {
  name = 'TransferAndDisputes1764520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_status_check');
    await queryRunner.query(`
      ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN
        ('pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized', 'disputed'))`);
    await queryRunner.query(`
      ALTER TABLE invoices
        ADD COLUMN transfer_started_at timestamptz,
        ADD COLUMN transfer_received_at timestamptz,
        ADD COLUMN release_started_at timestamptz`);
    await queryRunner.query(`
      CREATE TABLE disputes (
        id uuid PRIMARY KEY,
        invoice_id uuid NOT NULL REFERENCES invoices (id),
        buyer_id uuid NOT NULL,
        reason text NOT NULL
          CHECK (reason IN ('site_not_received', 'not_as_described', 'access_incomplete', 'seller_unresponsive', 'other')),
        message text NOT NULL CHECK (char_length(message) BETWEEN 20 AND 2000),
        opened_at timestamptz NOT NULL DEFAULT now(),
        -- The admin's decision, set before the provider moves the money and cleared if it refuses.
        resolution text CHECK (resolution IN ('release', 'refund')),
        resolution_note text CHECK (char_length(resolution_note) BETWEEN 10 AND 1000),
        resolved_by uuid,
        resolution_audited_at timestamptz,
        escalated_at timestamptz,
        outcome text CHECK (outcome IN ('released', 'refunded', 'lapsed')),
        closed_at timestamptz,
        CHECK ((outcome IS NULL) = (closed_at IS NULL)),
        CHECK ((resolution IS NULL) = (resolution_note IS NULL) AND (resolution IS NULL) = (resolved_by IS NULL))
      )`);
    // One open dispute per invoice, whoever races to open it.
    await queryRunner.query('CREATE UNIQUE INDEX disputes_one_open_idx ON disputes (invoice_id) WHERE closed_at IS NULL');
    await queryRunner.query('CREATE INDEX disputes_invoice_idx ON disputes (invoice_id, opened_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE disputes');
    await queryRunner.query('ALTER TABLE invoices DROP COLUMN transfer_started_at, DROP COLUMN transfer_received_at, DROP COLUMN release_started_at');
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT invoices_status_check');
    await queryRunner.query(`
      ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN
        ('pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized'))`);
  }
}
