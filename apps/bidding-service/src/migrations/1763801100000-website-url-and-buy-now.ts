import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The website address for invoices (ADR 0018), and buy-now purchases recorded as the sale's winning bid (D4). Sales end
 * at their end in any status but sold, expired or deleted (a draft or pending listing's bids must not hang forever),
 * so the index of live ends covers those.
 */
export class WebsiteUrlAndBuyNow1763801100000 implements MigrationInterface {
  name = 'WebsiteUrlAndBuyNow1763801100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE auctions ADD COLUMN website_url text');
    await queryRunner.query('ALTER TABLE bids DROP CONSTRAINT bids_kind_check');
    await queryRunner.query(`ALTER TABLE bids ADD CONSTRAINT bids_kind_check CHECK (kind IN ('bid', 'offer', 'buy_now'))`);
    await queryRunner.query('DROP INDEX auctions_live_end_idx');
    await queryRunner.query(`CREATE INDEX auctions_live_end_idx ON auctions (expires_at) WHERE status NOT IN ('sold', 'expired', 'deleted')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX auctions_live_end_idx');
    await queryRunner.query(`CREATE INDEX auctions_live_end_idx ON auctions (expires_at) WHERE status IN ('active', 'paused')`);
    await queryRunner.query(`DELETE FROM bids WHERE kind = 'buy_now'`);
    await queryRunner.query('ALTER TABLE bids DROP CONSTRAINT bids_kind_check');
    await queryRunner.query(`ALTER TABLE bids ADD CONSTRAINT bids_kind_check CHECK (kind IN ('bid', 'offer'))`);
    await queryRunner.query('ALTER TABLE auctions DROP COLUMN website_url');
  }
}
