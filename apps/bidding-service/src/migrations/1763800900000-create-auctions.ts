import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The bidding service's own state (ADR 0017): each listing's sale terms as listing events told it, and every bid. */
export class CreateAuctions1763800900000 implements MigrationInterface {
  name = 'CreateAuctions1763800900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE auctions (
        listing_id uuid PRIMARY KEY,
        seller_id uuid NOT NULL,
        listing_type text NOT NULL CHECK (listing_type IN ('auction', 'fixed')),
        auction_type text NOT NULL CHECK (auction_type IN ('auto', 'manual')),
        status text NOT NULL,
        starting_price bigint NOT NULL CHECK (starting_price > 0),
        reserve_price bigint,
        buy_now_price bigint,
        current_bid bigint,
        bid_count integer NOT NULL DEFAULT 0,
        expires_at timestamptz,
        -- The listing version last applied: listing events arrive on separate consumers, possibly out of order.
        source_updated_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE bids (
        id uuid PRIMARY KEY,
        listing_id uuid NOT NULL REFERENCES auctions (listing_id) ON DELETE CASCADE,
        bidder_id uuid NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query('CREATE INDEX bids_listing_idx ON bids (listing_id, created_at DESC)');
    await queryRunner.query('CREATE INDEX bids_bidder_idx ON bids (bidder_id, created_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE bids');
    await queryRunner.query('DROP TABLE auctions');
  }
}
