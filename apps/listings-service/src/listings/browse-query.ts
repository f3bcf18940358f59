import type { BrowseFacets, BrowseListingsQuery } from '@market/contracts';

/** A SQL text and its parameters. */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

// Qualified: the select list casts money to float8 under the same names, and a bare ORDER BY name would sort by
// that expression, which no index serves.
const ORDER: Record<BrowseListingsQuery['sort_by'], string> = {
  created_at: 'listings.created_at',
  price: 'listings.price',
  monthly_revenue: 'listings.monthly_revenue',
};

function whereClause(query: BrowseListingsQuery): SqlQuery {
  const where = [`status = 'active'`];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (query.search) add(`search @@ websearch_to_tsquery('english', ?)`, query.search);
  if (query.category) add('category = ?', query.category);
  if (query.listing_type !== 'all') add('listing_type = ?', query.listing_type);
  if (query.featured !== undefined) add('featured = ?', query.featured);
  if (query.min_price !== undefined) add('price >= ?', query.min_price);
  if (query.max_price !== undefined) add('price <= ?', query.max_price);
  if (query.min_revenue !== undefined) add('monthly_revenue >= ?', query.min_revenue);
  if (query.max_revenue !== undefined) add('monthly_revenue <= ?', query.max_revenue);
  // Verified figures (D24, ADR 0084): written as the predicates of their partial indexes (1765400000001-verified-browse),
  // which a parameter would hide from the planner.
  if (query.verified_revenue) where.push('revenue_verified');
  if (query.verified_traffic) where.push('traffic_verified');
  return { sql: where.join(' AND '), params };
}

/**
 * One browse page, in two steps: the page's ids in sort order (ORDER BY the sort column and id in the same direction,
 * so a covering partial index serves it as an index-only scan that stops after the page), then those rows' columns.
 * A search first collects its matches through the full-text index and sorts only them: walking a sort index while
 * testing every row against the search costs far more when matches are sparse. The benchmark EXPLAINs this text.
 */
export function buildBrowseQuery(query: BrowseListingsQuery, columns: string): SqlQuery {
  const where = whereClause(query);
  const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
  const sort = ORDER[query.sort_by];
  const params = [...where.params, query.limit, (query.page - 1) * query.limit];
  const page = `LIMIT $${params.length - 1} OFFSET $${params.length}`;
  const ids = query.search
    ? `WITH matches AS MATERIALIZED (SELECT id, ${sort} AS sort_key FROM listings WHERE ${where.sql}),
         page AS (SELECT id, sort_key FROM matches ORDER BY sort_key ${direction}, id ${direction} ${page})`
    : `WITH page AS (SELECT listings.id, ${sort} AS sort_key FROM listings WHERE ${where.sql}
         ORDER BY ${sort} ${direction}, listings.id ${direction} ${page})`;
  return {
    sql: `${ids}
       SELECT ${columns} FROM listings JOIN page USING (id)
       ORDER BY page.sort_key ${direction}, id ${direction}`,
    params,
  };
}

/**
 * One cell of the browse grid: how many active listings of a category, type and pair of verified flags (D24) match the
 * other filters. A cell may come in several rows (their counts add up, and one may be negative: see buildBrowseGrid).
 */
export interface GridCell {
  category: string;
  listing_type: string;
  revenue_verified: boolean;
  traffic_verified: boolean;
  n: number;
}

/**
 * The counts behind the total and the facets: matching active listings per category, type and verified flags, under
 * every filter except those four. Filters on featured alone (or none) read the trigger-kept listing_counts (at most 32
 * rows), which does not know the flags: the verified listings are counted apart through their partial indexes (few
 * rows) and moved out of the unflagged rows. Searches and ranges count the matching rows through their indexes, once
 * for the total and the facets both.
 */
export function buildBrowseGrid(query: BrowseListingsQuery): SqlQuery {
  const counted =
    query.search !== undefined || query.min_price !== undefined || query.max_price !== undefined || query.min_revenue !== undefined || query.max_revenue !== undefined;
  if (counted) {
    const where = whereClause({ ...query, category: undefined, listing_type: 'all', verified_revenue: false, verified_traffic: false });
    return {
      sql: `SELECT category, listing_type, revenue_verified, traffic_verified, count(*)::int AS n FROM listings WHERE ${where.sql}
            GROUP BY category, listing_type, revenue_verified, traffic_verified`,
      params: where.params,
    };
  }
  const featured = query.featured === undefined ? '' : ' AND featured = $1';
  // Each verified listing once, each part through its own partial index: those with verified revenue, then those with
  // only verified traffic; each is counted in its flags' row and taken out of the unflagged one.
  const revenue = `FROM listings WHERE status = 'active' AND revenue_verified${featured}`;
  const trafficOnly = `FROM listings WHERE status = 'active' AND traffic_verified AND NOT revenue_verified${featured}`;
  return {
    sql: `SELECT category, listing_type, false AS revenue_verified, false AS traffic_verified, COALESCE(sum(active), 0)::int AS n
            FROM listing_counts${featured.replace(' AND', ' WHERE')} GROUP BY category, listing_type
          UNION ALL SELECT category, listing_type, true, traffic_verified, count(*)::int ${revenue} GROUP BY category, listing_type, traffic_verified
          UNION ALL SELECT category, listing_type, false, true, count(*)::int ${trafficOnly} GROUP BY category, listing_type
          UNION ALL SELECT category, listing_type, false, false, -count(*)::int ${revenue} GROUP BY category, listing_type
          UNION ALL SELECT category, listing_type, false, false, -count(*)::int ${trafficOnly} GROUP BY category, listing_type`,
    params: query.featured === undefined ? [] : [query.featured],
  };
}

type FacetQuery = Pick<BrowseListingsQuery, 'category' | 'listing_type' | 'verified_revenue' | 'verified_traffic'>;

/** The total the request matches and its facets, from the grid: each facet applies every filter but its own. */
export function totalAndFacets(grid: GridCell[], query: FacetQuery): { total: number; facets: BrowseFacets } {
  const inCategory = (cell: GridCell) => !query.category || cell.category === query.category;
  const ofType = (cell: GridCell) => query.listing_type === 'all' || cell.listing_type === query.listing_type;
  const revenueHolds = (cell: GridCell) => !query.verified_revenue || cell.revenue_verified;
  const trafficHolds = (cell: GridCell) => !query.verified_traffic || cell.traffic_verified;
  const facets: BrowseFacets = { category: {}, listing_type: { auction: 0, fixed: 0 }, verified: { revenue: 0, traffic: 0 } };
  let total = 0;
  for (const cell of grid) {
    if (cell.n === 0) continue;
    const flagsHold = revenueHolds(cell) && trafficHolds(cell);
    if (ofType(cell) && flagsHold) facets.category[cell.category] = (facets.category[cell.category] ?? 0) + cell.n;
    if (inCategory(cell) && flagsHold && (cell.listing_type === 'auction' || cell.listing_type === 'fixed')) facets.listing_type[cell.listing_type] += cell.n;
    if (inCategory(cell) && ofType(cell)) {
      if (flagsHold) total += cell.n;
      if (cell.revenue_verified && trafficHolds(cell)) facets.verified.revenue += cell.n;
      if (cell.traffic_verified && revenueHolds(cell)) facets.verified.traffic += cell.n;
    }
  }
  // A category whose rows add up to nothing (a flagged count moved out of its unflagged row) is not a choice.
  for (const [category, n] of Object.entries(facets.category)) if (n === 0) delete facets.category[category];
  return { total, facets };
}
