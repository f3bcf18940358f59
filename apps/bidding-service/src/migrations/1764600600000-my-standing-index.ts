import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bid form asks a viewer's own standing on one listing (ADR 0060): whether they ever bid there is one probe of
 * (listing_id, bidder_id) over all their bids, not only the standing ones the proxy index covers.
 */
export class MyStandingIndex1764600600000 implements MigrationInterface {
  name = 'MyStandingIndex1764600600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX bids_listing_bidder_idx ON bids (listing_id, bidder_id) WHERE kind = 'bid'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX bids_listing_bidder_idx');
  }
}
