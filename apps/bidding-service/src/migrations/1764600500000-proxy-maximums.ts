import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proxy bidding (ADR 0055): each bidder's maximum per auction, kept in the bidding schema so it survives restarts, and
 * the mark on bids the system placed for a maximum. Every bidder standing in an auction has a row (a plain bid's
 * maximum is its amount); existing standing bids get theirs here, so the leader is always read from this table.
 */
export class ProxyMaximums1764600500000 implements MigrationInterface {
  name = 'ProxyMaximums1764600500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE bids ADD COLUMN automatic boolean NOT NULL DEFAULT false');
    await queryRunner.query(`
      CREATE TABLE auction_maximums (
        listing_id uuid NOT NULL REFERENCES auctions (listing_id) ON DELETE CASCADE,
        bidder_id uuid NOT NULL,
        -- The most the system may bid for this bidder here; never shown to anyone else (API, events, logs).
        max_amount bigint NOT NULL CHECK (max_amount > 0),
        -- When the maximum last rose: of equal maximums the earlier leads.
        set_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        -- The bidder set it with max_amount (only then is it shown back to them); false for a plain bid's amount.
        proxy boolean NOT NULL DEFAULT false,
        -- The username their last bid carried (usernames never change), for the bid.placed of automatic bids.
        bidder_name text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (listing_id, bidder_id)
      )`);
    await queryRunner.query('CREATE INDEX auction_maximums_rank_idx ON auction_maximums (listing_id, max_amount DESC, set_at)');
    // Whether a bidder still stands in an auction, asked for each maximum the lock reads.
    await queryRunner.query(`CREATE INDEX bids_standing_bidder_idx ON bids (listing_id, bidder_id) WHERE status = 'pending' AND kind = 'bid'`);
    await queryRunner.query(`
      INSERT INTO auction_maximums (listing_id, bidder_id, max_amount, set_at)
      SELECT DISTINCT ON (listing_id, bidder_id) listing_id, bidder_id, amount, created_at FROM bids
      WHERE status = 'pending' AND kind = 'bid'
      ORDER BY listing_id, bidder_id, amount DESC, created_at ASC`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX bids_standing_bidder_idx');
    await queryRunner.query('DROP TABLE auction_maximums');
    await queryRunner.query('ALTER TABLE bids DROP COLUMN automatic');
  }
}
