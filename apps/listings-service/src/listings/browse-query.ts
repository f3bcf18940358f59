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

/** One cell of the browse grid: how many active listings of a category and type match the other filters. */
export interface GridCell {
  category: string;
  listing_type: string;
  n: number;
}

/**
 * The counts behind the total and the facets: matching active listings per category and type, under every filter
 * except category and type. Filters on featured alone (or none) read the trigger-kept listing_counts (at most 32
 * rows); searches, ranges and the verified filters (D24: listing_counts does not know the flags) count the matching
 * rows through their indexes, once for the total and the facets both.
 */
export function buildBrowseGrid(query: BrowseListingsQuery): SqlQuery {
  const counted =
    query.search !== undefined ||
    query.min_price !== undefined ||
    query.max_price !== undefined ||
    query.min_revenue !== undefined ||
    query.max_revenue !== undefined ||
    query.verified_revenue ||
    query.verified_traffic;
  if (counted) {
    const where = whereClause({ ...query, category: undefined, listing_type: 'all' });
    return {
      sql: `SELECT category, listing_type, count(*)::int AS n FROM listings WHERE ${where.sql} GROUP BY category, listing_type`,
      params: where.params,
    };
  }
  const featured = query.featured === undefined ? '' : ' WHERE featured = $1';
  return {
    sql: `SELECT category, listing_type, COALESCE(sum(active), 0)::int AS n FROM listing_counts${featured} GROUP BY category, listing_type`,
    params: query.featured === undefined ? [] : [query.featured],
  };
}

/** The total the request matches and its facets, from the grid: each facet applies every filter but its own. */
export function totalAndFacets(grid: GridCell[], query: Pick<BrowseListingsQuery, 'category' | 'listing_type'>): { total: number; facets: BrowseFacets } {
  const inCategory = (cell: GridCell) => !query.category || cell.category === query.category;
  const ofType = (cell: GridCell) => query.listing_type === 'all' || cell.listing_type === query.listing_type;
  const facets: BrowseFacets = { category: {}, listing_type: { auction: 0, fixed: 0 } };
  let total = 0;
  for (const cell of grid) {
    if (cell.n === 0) continue;
    if (ofType(cell)) facets.category[cell.category] = (facets.category[cell.category] ?? 0) + cell.n;
    if (inCategory(cell) && (cell.listing_type === 'auction' || cell.listing_type === 'fixed')) facets.listing_type[cell.listing_type] += cell.n;
    if (inCategory(cell) && ofType(cell)) total += cell.n;
  }
  return { total, facets };
}
