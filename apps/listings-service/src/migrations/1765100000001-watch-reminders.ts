import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The email 24 hours before a watched auction ends (ADR 0074): when each watcher was reminded (once per watch), who
 * turned these reminders off, and the index the sweep finds auctions ending within the day by.
 */
export class WatchReminders1765100000001 implements MigrationInterface {
  name = 'WatchReminders1765100000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE watchlist ADD COLUMN ending_reminded_at timestamptz');
    await queryRunner.query('CREATE TABLE watch_reminder_optouts (user_id uuid PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())');
    await queryRunner.query(`CREATE INDEX listings_active_auction_end_idx ON listings (expires_at) WHERE status = 'active' AND listing_type = 'auction'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX listings_active_auction_end_idx');
    await queryRunner.query('DROP TABLE watch_reminder_optouts');
    await queryRunner.query('ALTER TABLE watchlist DROP COLUMN ending_reminded_at');
  }
}
