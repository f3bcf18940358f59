import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bid that left an auction before its end (the seller rejected it, or its bidder was suspended or deleted) is marked
 * withdrawn, so the public bid history matches the repriced auction and never shows a price above it (ADR 0038). Bids
 * rejected by the sale's end (another bid won, or the seller's window lapsed) stay in the history as before.
 */
export class WithdrawnBids1764510200000 implements MigrationInterface {
  name = 'WithdrawnBids1764510200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE bids ADD COLUMN withdrawn_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE bids DROP COLUMN withdrawn_at');
  }
}
