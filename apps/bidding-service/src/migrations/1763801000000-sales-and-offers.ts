import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sales (ADR 0017): the listing title for bid rows and invoices, when and to whom a sale ended, offers beside bids, and
 * a unique index that makes a second winner impossible whatever races.
 */
export class SalesAndOffers1763801000000 implements MigrationInterface {
  name = 'SalesAndOffers1763801000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE auctions ADD COLUMN title text NOT NULL DEFAULT ''`);
    await queryRunner.query('ALTER TABLE auctions ADD COLUMN closed_at timestamptz');
    await queryRunner.query('ALTER TABLE auctions ADD COLUMN winning_bid_id uuid');
    await queryRunner.query(`ALTER TABLE bids ADD COLUMN kind text NOT NULL DEFAULT 'bid' CHECK (kind IN ('bid', 'offer'))`);
    await queryRunner.query('ALTER TABLE bids ADD COLUMN decided_at timestamptz');
    await queryRunner.query(`CREATE UNIQUE INDEX bids_one_winner_idx ON bids (listing_id) WHERE status = 'accepted'`);
    // The close sweep and the start-up job check read only live sales, and lapsed pending bids of ended ones.
    await queryRunner.query(`CREATE INDEX auctions_live_end_idx ON auctions (expires_at) WHERE status IN ('active', 'paused')`);
    await queryRunner.query(`CREATE INDEX auctions_closed_idx ON auctions (closed_at) WHERE closed_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX bids_pending_idx ON bids (listing_id) WHERE status = 'pending'`);
    await queryRunner.query('CREATE INDEX auctions_seller_idx ON auctions (seller_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX auctions_seller_idx');
    await queryRunner.query('DROP INDEX bids_pending_idx');
    await queryRunner.query('DROP INDEX auctions_closed_idx');
    await queryRunner.query('DROP INDEX auctions_live_end_idx');
    await queryRunner.query('DROP INDEX bids_one_winner_idx');
    await queryRunner.query('ALTER TABLE bids DROP COLUMN decided_at');
    await queryRunner.query('ALTER TABLE bids DROP COLUMN kind');
    await queryRunner.query('ALTER TABLE auctions DROP COLUMN winning_bid_id');
    await queryRunner.query('ALTER TABLE auctions DROP COLUMN closed_at');
    await queryRunner.query('ALTER TABLE auctions DROP COLUMN title');
  }
}
