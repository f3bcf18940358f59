import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The windows of the bid emails (ADR 0056): when each person was last told they were outbid on a listing, and each
 * listing's digest of new bids for its seller, open while it gathers bids and closed once its email job takes it.
 * Ids are text, as the events carry them.
 */
export class BidEmailWindows1764950000000 implements MigrationInterface {
  name = 'BidEmailWindows1764950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbid_notices (
        listing_id text NOT NULL,
        user_id text NOT NULL,
        last_sent_at timestamptz NOT NULL,
        PRIMARY KEY (listing_id, user_id)
      )`);
    await queryRunner.query('CREATE INDEX outbid_notices_last_sent_at_idx ON outbid_notices (last_sent_at)');
    // A digest's id is the id of the bid.placed event that opened it, so a retried event opens the same one.
    await queryRunner.query(`
      CREATE TABLE bid_digests (
        id text PRIMARY KEY,
        listing_id text NOT NULL,
        seller_id text NOT NULL,
        listing_title text NOT NULL,
        opened_at timestamptz NOT NULL DEFAULT now(),
        due_at timestamptz NOT NULL,
        closed_at timestamptz,
        bids integer NOT NULL CHECK (bids > 0),
        automatic_bids integer NOT NULL DEFAULT 0,
        first_bid_at timestamptz NOT NULL,
        last_bid_at timestamptz NOT NULL,
        price_version bigint NOT NULL,
        current_bid numeric NOT NULL,
        bid_count integer NOT NULL,
        reserve_met boolean NOT NULL,
        expires_at timestamptz,
        extended boolean NOT NULL DEFAULT false
      )`);
    // At most one open digest per listing: a bid joins it or, when there is none, opens the next.
    await queryRunner.query('CREATE UNIQUE INDEX bid_digests_open_idx ON bid_digests (listing_id) WHERE closed_at IS NULL');
    await queryRunner.query('CREATE INDEX bid_digests_closed_at_idx ON bid_digests (closed_at) WHERE closed_at IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE bid_digests');
    await queryRunner.query('DROP TABLE outbid_notices');
  }
}
