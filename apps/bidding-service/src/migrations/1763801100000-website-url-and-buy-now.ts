import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 6: the website address for invoices, and buy-now purchases recorded as the sale's winning bid (D4). */
export class WebsiteUrlAndBuyNow1763801100000 implements MigrationInterface {
  name = 'WebsiteUrlAndBuyNow1763801100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE auctions ADD COLUMN website_url text');
    await queryRunner.query('ALTER TABLE bids DROP CONSTRAINT bids_kind_check');
    await queryRunner.query(`ALTER TABLE bids ADD CONSTRAINT bids_kind_check CHECK (kind IN ('bid', 'offer', 'buy_now'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM bids WHERE kind = 'buy_now'`);
    await queryRunner.query('ALTER TABLE bids DROP CONSTRAINT bids_kind_check');
    await queryRunner.query(`ALTER TABLE bids ADD CONSTRAINT bids_kind_check CHECK (kind IN ('bid', 'offer'))`);
    await queryRunner.query('ALTER TABLE auctions DROP COLUMN website_url');
  }
}
