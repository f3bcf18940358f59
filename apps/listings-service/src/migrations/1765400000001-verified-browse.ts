import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What browse_changes notes of an update of an active listing (ADR 0081), with or without the verified flags. */
function browseUpdateTrigger(columns: string[]): string {
  const row = (side: 'OLD' | 'NEW') => `(${columns.map((column) => `${side}.${column}`).join(', ')})`;
  return `
    CREATE OR REPLACE TRIGGER listings_browse_update AFTER UPDATE ON listings
    FOR EACH ROW WHEN (
      (OLD.status = 'active' OR NEW.status = 'active') AND
      ${row('OLD')}
      IS DISTINCT FROM
      ${row('NEW')}
    ) EXECUTE FUNCTION browse_changes_note()`;
}

const BROWSE_COLUMNS = ['status', 'category', 'listing_type', 'featured', 'price', 'monthly_revenue', 'created_at', 'search'];

/**
 * Browse filters by verified revenue and traffic (D24, ADR 0084):
 * - the browse index's change feed (ADR 0081) notes a change of revenue_verified or traffic_verified, as it does a
 *   featured flag's, so every replica's index moves the listing in or out of the filter at commit;
 * - the SQL path (while the index loads, when it is behind, for a phrase) gets one partial index per flag, over the
 *   active listings that have it, in the default order (newest first) and covering every other browse filter. A verified
 *   listing is one whose seller connected Stripe or Google Analytics 4 and kept it current: a minority of listings, so
 *   such an index holds only them. The page of the default sort is an index-only scan that stops after the page, another
 *   sort orders only the verified rows, and the counts behind the total and the facets (which cannot come from the
 *   trigger-kept listing_counts under this filter) read only their entries. Adding the flags to the seven covering sort
 *   indexes instead would rebuild indexes of every active listing, and a filter on a rare flag would still pass every
 *   entry without it before a page filled and read every active listing's entry to count. Should most listings become
 *   verified, the partial index costs about what the newest-first index does, and stays right. Measured at 300,000
 *   listings, 3% with verified revenue: the 101st page 50 ms without it, 0.5 ms with it; the counts 56 ms (a parallel
 *   scan of the table), 2.4 ms; the index 0.8 MB beside the newest-first index's 22 MB.
 *
 * The columns were just added, false everywhere, so the indexes start empty; they are built CONCURRENTLY (outside a
 * transaction, as the retention indexes are) so listings keep taking writes while the table is read. The trigger is
 * replaced in one statement, so no update goes unnoted between an old and a new one.
 */
export class VerifiedBrowse1765400000001 implements MigrationInterface {
  name = 'VerifiedBrowse1765400000001';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(browseUpdateTrigger([...BROWSE_COLUMNS, 'revenue_verified', 'traffic_verified']));
    const filters = 'category, listing_type, featured, price, monthly_revenue';
    for (const [flag, other] of [['revenue_verified', 'traffic_verified'], ['traffic_verified', 'revenue_verified']]) {
      const name = `listings_active_${flag}_idx`;
      // A build that failed before leaves an invalid index behind, which IF NOT EXISTS would keep.
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(
        `CREATE INDEX CONCURRENTLY ${name} ON listings (created_at DESC, id DESC) INCLUDE (${filters}, ${other}) WHERE status = 'active' AND ${flag}`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Not CONCURRENTLY: TypeORM reverts a migration in a transaction whatever its `transaction` says.
    await queryRunner.query('DROP INDEX IF EXISTS listings_active_traffic_verified_idx');
    await queryRunner.query('DROP INDEX IF EXISTS listings_active_revenue_verified_idx');
    await queryRunner.query(browseUpdateTrigger(BROWSE_COLUMNS));
  }
}
