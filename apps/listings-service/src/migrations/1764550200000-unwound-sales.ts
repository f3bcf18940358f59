import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sales taken back (ADR 0043): the winning bid of each unwound sale, so that its bid.accepted or sold auction.closed,
 * arriving late or crossing the unwinding, can never sell the listing again.
 */
export class UnwoundSales1764550200000 implements MigrationInterface {
  name = 'UnwoundSales1764550200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE unwound_sales (
        bid_id uuid PRIMARY KEY,
        listing_id uuid NOT NULL,
        reason text NOT NULL CHECK (reason IN ('unpaid', 'admin_cancelled')),
        unwound_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE unwound_sales');
  }
}
