import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repricing and moderation (ADR 0038): each auction's price version grows with every bid and every repricing, so the
 * listings service and live viewers keep the newest state even when a rejection lowers the count (until now the count
 * itself was the version, so existing rows start at it); and each member's moderation state as auth-service announced
 * it, versioned by when it changed, so a bid from a suspended or deleted member is refused and never wins.
 */
export class PriceVersionAndMemberStates1764510000000 implements MigrationInterface {
  name = 'PriceVersionAndMemberStates1764510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE auctions ADD COLUMN price_version integer NOT NULL DEFAULT 0');
    await queryRunner.query('UPDATE auctions SET price_version = bid_count');
    await queryRunner.query(`
      CREATE TABLE member_states (
        user_id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('active', 'suspended', 'deleted')),
        changed_at timestamptz NOT NULL
      )`);
    // The moderation sweep finds a member's pending bids without reading every bid.
    await queryRunner.query(`CREATE INDEX bids_pending_bidder_idx ON bids (bidder_id) WHERE status = 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX bids_pending_bidder_idx');
    await queryRunner.query('DROP TABLE member_states');
    await queryRunner.query('ALTER TABLE auctions DROP COLUMN price_version');
  }
}
