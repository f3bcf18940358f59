// The browse index's fixed shape (ADR 0081, 0082), shared by the index, its orders and its queries.

/** The sort keys, in the order of `keys`: browse's sort_by values. */
export const SORT_KEYS = ['created_at', 'price', 'monthly_revenue'] as const;
export type SortKeyName = (typeof SORT_KEYS)[number];
/** Positions per block of a sort order's prefix counts. */
export const BLOCK = 256;
/** Per sort key, the other range key kept along its order (otherAlong): revenue along price, price along revenue. */
export const OTHER_RANGE = [-1, 2, 1] as const;

// A slot's cell is every filter of it but the ranges and the search, in one number (liveCell, ADR 0082): its pair,
// category * 2 + type, above FLAG_BITS bits of yes/no filters, featured and the verified revenue and traffic (D24).
// The grid counts pairs (cell >> FLAG_BITS); the flags asked for are one test, (cell & mask) === want.
export const FLAG_BITS = 3;
export const FEATURED_BIT = 0b100;
export const REVENUE_VERIFIED_BIT = 0b010;
export const TRAFFIC_VERIFIED_BIT = 0b001;
/** Cells per category: two types, each with every combination of the flags. */
export const CELLS_PER_CATEGORY = 2 << FLAG_BITS;
/** liveCell's value for a dead (or never used) slot: above every live cell, and checked apart from the flags' test. */
export const DEAD_CELL = 0xffff;
/** Categories the cells can tell apart below DEAD_CELL (the catalog has eight, D1). */
export const MAX_CATEGORIES = Math.floor(DEAD_CELL / CELLS_PER_CATEGORY);

/** A live slot's cell. */
export function cellOf(category: number, auction: boolean, featured: boolean, revenueVerified: boolean, trafficVerified: boolean): number {
  return (
    ((category * 2 + (auction ? 0 : 1)) << FLAG_BITS) |
    (featured ? FEATURED_BIT : 0) |
    (revenueVerified ? REVENUE_VERIFIED_BIT : 0) |
    (trafficVerified ? TRAFFIC_VERIFIED_BIT : 0)
  );
}

/** The flags a browse asks for: a live cell matches when (cell & mask) === want; no flag filter is mask 0. */
export function flagFilter(query: { featured?: boolean; verified_revenue?: boolean; verified_traffic?: boolean }): { mask: number; want: number } {
  let mask = 0;
  let want = 0;
  if (query.featured !== undefined) {
    mask |= FEATURED_BIT;
    if (query.featured) want |= FEATURED_BIT;
  }
  // Only `true` filters (contracts: false is no filter).
  if (query.verified_revenue) {
    mask |= REVENUE_VERIFIED_BIT;
    want |= REVENUE_VERIFIED_BIT;
  }
  if (query.verified_traffic) {
    mask |= TRAFFIC_VERIFIED_BIT;
    want |= TRAFFIC_VERIFIED_BIT;
  }
  return { mask, want };
}
