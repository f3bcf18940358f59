import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Watchlist entries (ADR 0013) and the index the admin list and seller views sort by. */
export class CreateWatchlist1763800700000 implements MigrationInterface {
  name = 'CreateWatchlist1763800700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE watchlist (
        user_id uuid NOT NULL,
        listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, listing_id)
      )`);
    await queryRunner.query('CREATE INDEX watchlist_user_idx ON watchlist (user_id, created_at DESC)');
    await queryRunner.query('CREATE INDEX watchlist_listing_idx ON watchlist (listing_id)');
    await queryRunner.query('CREATE INDEX listings_created_idx ON listings (created_at DESC, id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX listings_created_idx');
    await queryRunner.query('DROP TABLE watchlist');
  }
}
