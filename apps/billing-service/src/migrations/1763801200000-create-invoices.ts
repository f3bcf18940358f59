import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoices (D10, ADR 0018): one per sale (unique bid and listing), numbered from a sequence, money in cents. The
 * success fee in force at creation is kept on the invoice with its fee and payout, so a later change of the setting
 * applies only to later invoices.
 */
export class CreateInvoices1763801200000 implements MigrationInterface {
  name = 'CreateInvoices1763801200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SEQUENCE invoice_number_seq AS bigint START 1');
    await queryRunner.query(`
      CREATE TABLE invoices (
        id uuid PRIMARY KEY,
        invoice_number text NOT NULL UNIQUE,
        bid_id uuid NOT NULL UNIQUE,
        listing_id uuid NOT NULL UNIQUE,
        buyer_id uuid NOT NULL,
        seller_id uuid NOT NULL,
        website_title text NOT NULL,
        website_url text,
        sale_type text NOT NULL CHECK (sale_type IN ('auction_win', 'accepted_offer', 'buy_now')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents % 100 = 0),
        success_fee_percent numeric(5, 2) NOT NULL CHECK (success_fee_percent BETWEEN 0 AND 100),
        fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
        payout_cents bigint NOT NULL CHECK (payout_cents = amount_cents - fee_cents),
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized')),
        due_date timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        paid_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The Invoices tab lists a user's invoices as buyer and as seller, newest first.
    await queryRunner.query('CREATE INDEX invoices_buyer_idx ON invoices (buyer_id, created_at DESC)');
    await queryRunner.query('CREATE INDEX invoices_seller_idx ON invoices (seller_id, created_at DESC)');
    // The overdue sweep (status = ANY(...) AND due_date <= now) and the count of paid invoices.
    await queryRunner.query('CREATE INDEX invoices_status_due_idx ON invoices (status, due_date)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE invoices');
    await queryRunner.query('DROP SEQUENCE invoice_number_seq');
  }
}
