import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The browse index's change feed (ADR 0081): every committed change of what browse filters, sorts or searches by
 * leaves the listing's id in browse_changes under a rising sequence, and a notice on `listings_browse` wakes every
 * replica's index at commit. Bids change the stored price, so they are in it; other edits (texts of the card only)
 * are not, since the index reads cards from the table.
 */
export class BrowseChanges1765200000000 implements MigrationInterface {
  name = 'BrowseChanges1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE browse_changes (
        seq bigserial PRIMARY KEY,
        listing_id uuid NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX browse_changes_changed_at_idx ON browse_changes (changed_at)');
    await queryRunner.query(`
      CREATE FUNCTION browse_changes_note() RETURNS trigger LANGUAGE plpgsql
      SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO browse_changes (listing_id) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        -- One notice per transaction whatever it changed: PostgreSQL folds identical notices of a transaction.
        PERFORM pg_notify('listings_browse', '');
        RETURN NULL;
      END $$`);
    // Only what browse can see: an active listing that comes, goes or changes. Drafts and pending listings cost nothing.
    await queryRunner.query(`
      CREATE TRIGGER listings_browse_insert AFTER INSERT ON listings
      FOR EACH ROW WHEN (NEW.status = 'active') EXECUTE FUNCTION browse_changes_note()`);
    await queryRunner.query(`
      CREATE TRIGGER listings_browse_delete AFTER DELETE ON listings
      FOR EACH ROW WHEN (OLD.status = 'active') EXECUTE FUNCTION browse_changes_note()`);
    await queryRunner.query(`
      CREATE TRIGGER listings_browse_update AFTER UPDATE ON listings
      FOR EACH ROW WHEN (
        (OLD.status = 'active' OR NEW.status = 'active') AND
        (OLD.status, OLD.category, OLD.listing_type, OLD.featured, OLD.price, OLD.monthly_revenue, OLD.created_at, OLD.search)
        IS DISTINCT FROM
        (NEW.status, NEW.category, NEW.listing_type, NEW.featured, NEW.price, NEW.monthly_revenue, NEW.created_at, NEW.search)
      ) EXECUTE FUNCTION browse_changes_note()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER listings_browse_update ON listings');
    await queryRunner.query('DROP TRIGGER listings_browse_delete ON listings');
    await queryRunner.query('DROP TRIGGER listings_browse_insert ON listings');
    await queryRunner.query('DROP FUNCTION browse_changes_note()');
    await queryRunner.query('DROP TABLE browse_changes');
  }
}
