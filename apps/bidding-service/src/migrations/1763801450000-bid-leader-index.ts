import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A bid finds the auction's current leader (to tell them they were outbid, D19) with one index probe. */
export class BidLeaderIndex1763801450000 implements MigrationInterface {
  name = 'BidLeaderIndex1763801450000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX bids_leader_idx ON bids (listing_id, amount DESC) WHERE status = 'pending' AND kind = 'bid'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX bids_leader_idx');
  }
}
