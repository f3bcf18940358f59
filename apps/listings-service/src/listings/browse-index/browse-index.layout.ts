// The browse index's fixed shape (ADR 0081, 0082), shared by the index, its orders and its queries.

/** The sort keys, in the order of `keys`: browse's sort_by values. */
export const SORT_KEYS = ['created_at', 'price', 'monthly_revenue'] as const;
export type SortKeyName = (typeof SORT_KEYS)[number];
/** Positions per block of a sort order's prefix counts. */
export const BLOCK = 256;
/** Per sort key, the other range key kept along its order (otherAlong): revenue along price, price along revenue. */
export const OTHER_RANGE = [-1, 2, 1] as const;
/** liveCell's value for a dead (or never used) slot. */
export const DEAD_CELL = 0xffff;
