import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved searches and the listings each matched (ADR 0074). The search text is kept parsed (`query`), so matching a
 * listing against every search parses nothing, and its signed unsubscribe token is made once, when it is saved, so a
 * listing that matches thousands signs nothing. A match is recorded once per search and listing, which makes the
 * matcher idempotent whatever the stream redelivers.
 */
export class SavedSearches1765100000000 implements MigrationInterface {
  name = 'SavedSearches1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE saved_searches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        name text NOT NULL,
        search text,
        query tsquery,
        category text,
        listing_type text NOT NULL DEFAULT 'all' CHECK (listing_type IN ('all', 'auction', 'fixed')),
        min_price bigint,
        max_price bigint,
        min_revenue bigint,
        max_revenue bigint,
        filters_key text NOT NULL,
        unsubscribe_token text NOT NULL,
        alerts boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX saved_searches_user_filters_idx ON saved_searches (user_id, filters_key)');
    await queryRunner.query('CREATE INDEX saved_searches_user_idx ON saved_searches (user_id, created_at DESC)');
    await queryRunner.query(`
      CREATE TABLE saved_search_matches (
        search_id uuid NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
        listing_id uuid NOT NULL,
        matched_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (search_id, listing_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE saved_search_matches');
    await queryRunner.query('DROP TABLE saved_searches');
  }
}
