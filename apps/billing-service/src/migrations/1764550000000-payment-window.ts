import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payment window (ADR 0043): each invoice made from now on carries `pay_by`, the moment its sale lapses unless the
 * buyer's card is authorised; a lapsed (or admin-cancelled) invoice is `cancelled`, with when and why. Invoices made
 * before keep no window (nothing promised their buyers one), so the sweep never lapses them.
 */
export class PaymentWindow1764550000000 implements MigrationInterface {
  name = 'PaymentWindow1764550000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_status_check');
    await queryRunner.query(`
      ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN
        ('pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized', 'disputed', 'cancelled'))`);
    await queryRunner.query(`
      ALTER TABLE invoices
        ADD COLUMN pay_by timestamptz,
        ADD COLUMN cancelled_at timestamptz,
        ADD COLUMN cancel_reason text CHECK (cancel_reason IN ('unpaid', 'admin_cancelled')),
        ADD COLUMN cancel_note text CHECK (char_length(cancel_note) BETWEEN 10 AND 500),
        ADD CONSTRAINT invoices_cancelled_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL AND cancel_reason IS NOT NULL))`);
    // A listing whose sale was unwound may be sold again: one invoice per listing among those not cancelled.
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT invoices_listing_id_key');
    await queryRunner.query(`CREATE UNIQUE INDEX invoices_one_live_sale_idx ON invoices (listing_id) WHERE status <> 'cancelled'`);
    // The lapse sweep reads only unpaid invoices with a window.
    await queryRunner.query(`
      CREATE INDEX invoices_pay_by_idx ON invoices (pay_by)
        WHERE pay_by IS NOT NULL AND status IN ('pending', 'overdue', 'payment_failed', 'awaiting_payment', 'payment_canceled')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX invoices_pay_by_idx');
    await queryRunner.query(`DELETE FROM invoices WHERE status = 'cancelled'`);
    await queryRunner.query('DROP INDEX invoices_one_live_sale_idx');
    await queryRunner.query('ALTER TABLE invoices ADD CONSTRAINT invoices_listing_id_key UNIQUE (listing_id)');
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT invoices_cancelled_check');
    await queryRunner.query('ALTER TABLE invoices DROP COLUMN pay_by, DROP COLUMN cancelled_at, DROP COLUMN cancel_reason, DROP COLUMN cancel_note');
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT invoices_status_check');
    await queryRunner.query(`
      ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN
        ('pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized', 'disputed'))`);
  }
}
