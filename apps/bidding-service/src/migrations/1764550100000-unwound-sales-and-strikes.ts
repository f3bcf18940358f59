import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Unpaid sales (ADR 0043): a winning bid whose sale lapsed unpaid or was cancelled by an admin is rejected with that
 * reason, and the buyer of a lapsed sale gets a strike, one per invoice (the event may be delivered again). Two strikes
 * within 90 days put the member's buying on hold until an admin lifts it.
 */
export class UnwoundSalesAndStrikes1764550100000 implements MigrationInterface {
  name = 'UnwoundSalesAndStrikes1764550100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bids ADD COLUMN rejection text CHECK (rejection IN ('lapsed', 'sale_cancelled'))`);
    await queryRunner.query(`
      CREATE TABLE buyer_strikes (
        invoice_id uuid PRIMARY KEY,
        buyer_id uuid NOT NULL,
        listing_id uuid NOT NULL,
        bid_id uuid NOT NULL,
        struck_at timestamptz NOT NULL,
        -- An admin's lift clears every strike counted so far (the hold ends); later strikes count afresh.
        lifted_at timestamptz,
        lifted_by uuid
      )`);
    await queryRunner.query('CREATE INDEX buyer_strikes_buyer_idx ON buyer_strikes (buyer_id, struck_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE buyer_strikes');
    await queryRunner.query('ALTER TABLE bids DROP COLUMN rejection');
  }
}
