import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved-search alert digests (ADR 0074): at most one open digest per search, gathering the listings that matched it,
 * due a day after the search's last email; and the headers an email was sent with (List-Unsubscribe, RFC 8058),
 * kept like its bodies only when the log was the mailbox.
 */
export class SearchAlerts1765100100000 implements MigrationInterface {
  name = 'SearchAlerts1765100100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE search_alert_digests (
        id text PRIMARY KEY,
        search_id text NOT NULL,
        user_id text NOT NULL,
        search_name text NOT NULL,
        unsubscribe_token text NOT NULL,
        listings jsonb NOT NULL,
        more integer NOT NULL DEFAULT 0,
        due_at timestamptz NOT NULL,
        closed_at timestamptz
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX search_alert_digests_open_idx ON search_alert_digests (search_id) WHERE closed_at IS NULL');
    await queryRunner.query('CREATE INDEX search_alert_digests_search_idx ON search_alert_digests (search_id, closed_at DESC)');
    await queryRunner.query('ALTER TABLE emails ADD COLUMN headers jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE emails DROP COLUMN headers');
    await queryRunner.query('DROP TABLE search_alert_digests');
  }
}
