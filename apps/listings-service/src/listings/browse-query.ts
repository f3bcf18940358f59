import type { BrowseListingsQuery } from '@market/contracts';

/** A SQL text and its parameters. */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

const ORDER: Record<BrowseListingsQuery['sort_by'], string> = {
  created_at: 'created_at',
  price: 'price',
  monthly_revenue: 'monthly_revenue',
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
  return { sql: where.join(' AND '), params };
}

/** The browse page query (one page plus the total as a window count); the benchmark EXPLAINs this same text. */
export function buildBrowseQuery(query: BrowseListingsQuery, columns: string): SqlQuery {
  const where = whereClause(query);
  const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
  const params = [...where.params, query.limit, (query.page - 1) * query.limit];
  return {
    sql: `SELECT ${columns}, count(*) OVER () AS total FROM listings WHERE ${where.sql}
       ORDER BY ${ORDER[query.sort_by]} ${direction}, id ${direction} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  };
}

/** How many active listings match the filters. */
export function buildBrowseCount(query: BrowseListingsQuery): SqlQuery {
  const where = whereClause(query);
  return { sql: `SELECT count(*)::int AS n FROM listings WHERE ${where.sql}`, params: where.params };
}
