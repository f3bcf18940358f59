import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browse at scale (ADR 0014): sort indexes whose column directions match ORDER BY x DESC, id DESC
 * exactly and that carry every filter column, and active-listing counts per (category, listing_type, featured) kept
 * by a trigger, so the common browse totals are a sum of at most 32 rows instead of a count of every active listing.
 */
export class BrowseCountsAndSortIndexes1763800800000 implements MigrationInterface {
  name = 'BrowseCountsAndSortIndexes1763800800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const active = `WHERE status = 'active'`;
    // Every browse filter column rides along (INCLUDE), so the page's ids and the range totals come from index-only
    // scans: filters are checked on the index entries, and only the 24 rows of the page are read from the table.
    const cover = (...columns: string[]) => `INCLUDE (${columns.join(', ')})`;
    for (const index of ['listings_active_newest_idx', 'listings_active_price_idx', 'listings_active_revenue_idx', 'listings_active_category_idx', 'listings_active_featured_idx', 'listings_created_idx']) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
    await queryRunner.query(
      `CREATE INDEX listings_active_newest_idx ON listings (created_at DESC, id DESC) ${cover('category', 'listing_type', 'featured', 'price', 'monthly_revenue')} ${active}`,
    );
    await queryRunner.query(
      `CREATE INDEX listings_active_price_idx ON listings (price, id) ${cover('category', 'listing_type', 'featured', 'monthly_revenue')} ${active}`,
    );
    await queryRunner.query(
      `CREATE INDEX listings_active_revenue_idx ON listings (monthly_revenue DESC, id DESC) ${cover('category', 'listing_type', 'featured', 'price')} ${active}`,
    );
    await queryRunner.query(
      `CREATE INDEX listings_active_category_idx ON listings (category, created_at DESC, id DESC) ${cover('listing_type', 'featured', 'price', 'monthly_revenue')} ${active}`,
    );
    await queryRunner.query(
      `CREATE INDEX listings_active_category_price_idx ON listings (category, price, id) ${cover('listing_type', 'featured', 'monthly_revenue')} ${active}`,
    );
    await queryRunner.query(
      `CREATE INDEX listings_active_category_revenue_idx ON listings (category, monthly_revenue DESC, id DESC) ${cover('listing_type', 'featured', 'price')} ${active}`,
    );
    await queryRunner.query(
      `CREATE INDEX listings_active_type_idx ON listings (listing_type, created_at DESC, id DESC) ${cover('category', 'featured', 'price', 'monthly_revenue')} ${active}`,
    );
    await queryRunner.query(`CREATE INDEX listings_active_featured_idx ON listings (created_at DESC, id DESC) ${active} AND featured`);
    await queryRunner.query('CREATE INDEX listings_created_idx ON listings (created_at DESC, id DESC)');

    await queryRunner.query(`
      CREATE TABLE listing_counts (
        category text NOT NULL,
        listing_type text NOT NULL,
        featured boolean NOT NULL,
        active bigint NOT NULL DEFAULT 0 CHECK (active >= 0),
        PRIMARY KEY (category, listing_type, featured)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION listing_counts_apply() RETURNS trigger LANGUAGE plpgsql
      -- The service's schema, whatever search_path the writing session has.
      SET search_path FROM CURRENT AS $$
      DECLARE
        leaves boolean := TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'active';
        joins boolean := TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'active';
      BEGIN
        -- Counter rows are always locked in key order, so two listings moving opposite ways cannot deadlock.
        IF leaves AND joins AND (NEW.category, NEW.listing_type, NEW.featured) < (OLD.category, OLD.listing_type, OLD.featured) THEN
          INSERT INTO listing_counts (category, listing_type, featured, active) VALUES (NEW.category, NEW.listing_type, NEW.featured, 1)
          ON CONFLICT (category, listing_type, featured) DO UPDATE SET active = listing_counts.active + 1;
          UPDATE listing_counts SET active = active - 1
          WHERE category = OLD.category AND listing_type = OLD.listing_type AND featured = OLD.featured;
          RETURN NULL;
        END IF;
        IF leaves THEN
          UPDATE listing_counts SET active = active - 1
          WHERE category = OLD.category AND listing_type = OLD.listing_type AND featured = OLD.featured;
        END IF;
        IF joins THEN
          INSERT INTO listing_counts (category, listing_type, featured, active) VALUES (NEW.category, NEW.listing_type, NEW.featured, 1)
          ON CONFLICT (category, listing_type, featured) DO UPDATE SET active = listing_counts.active + 1;
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER listing_counts_rows AFTER INSERT OR DELETE ON listings FOR EACH ROW EXECUTE FUNCTION listing_counts_apply()',
    );
    await queryRunner.query(`
      CREATE TRIGGER listing_counts_changes AFTER UPDATE OF status, category, listing_type, featured ON listings FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.category IS DISTINCT FROM NEW.category
         OR OLD.listing_type IS DISTINCT FROM NEW.listing_type OR OLD.featured IS DISTINCT FROM NEW.featured)
      EXECUTE FUNCTION listing_counts_apply()`);
    await queryRunner.query(`
      INSERT INTO listing_counts (category, listing_type, featured, active)
      SELECT category, listing_type, featured, count(*) FROM listings ${active} GROUP BY category, listing_type, featured`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER listing_counts_changes ON listings');
    await queryRunner.query('DROP TRIGGER listing_counts_rows ON listings');
    await queryRunner.query('DROP FUNCTION listing_counts_apply()');
    await queryRunner.query('DROP TABLE listing_counts');
    for (const index of ['listings_active_type_idx', 'listings_active_category_price_idx', 'listings_active_category_revenue_idx']) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
    // Back to the indexes of the earlier migrations.
    const active = `WHERE status = 'active'`;
    for (const index of ['listings_active_newest_idx', 'listings_active_price_idx', 'listings_active_revenue_idx', 'listings_active_category_idx', 'listings_active_featured_idx', 'listings_created_idx']) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
    await queryRunner.query(`CREATE INDEX listings_active_newest_idx ON listings (created_at DESC, id) ${active}`);
    await queryRunner.query(`CREATE INDEX listings_active_price_idx ON listings (price, id) ${active}`);
    await queryRunner.query(`CREATE INDEX listings_active_revenue_idx ON listings (monthly_revenue DESC, id) ${active}`);
    await queryRunner.query(`CREATE INDEX listings_active_category_idx ON listings (category, created_at DESC) ${active}`);
    await queryRunner.query(`CREATE INDEX listings_active_featured_idx ON listings (created_at DESC) ${active} AND featured`);
    await queryRunner.query('CREATE INDEX listings_created_idx ON listings (created_at DESC, id)');
  }
}
