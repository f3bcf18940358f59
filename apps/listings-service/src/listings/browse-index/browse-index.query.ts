import type { BrowseListingsQuery } from '@market/contracts';
import type { GridCell } from '../browse-query';
import { BLOCK, DEAD_CELL, SORT_KEYS, type BrowseIndex } from './browse-index';
import { CELLS_PER_CATEGORY, FLAG_BITS, REVENUE_VERIFIED_BIT, TRAFFIC_VERIFIED_BIT, flagFilter } from './browse-index.layout';
import { evaluate } from './posting-sets';
import { choosePage } from './browse-index.page';

export { pickRanks } from './browse-index.page';
import type { TsQueryNode } from './ts-query';

/** A browse page from the index: the page's ids in order, and the counts grid its total and facets come from. */
export interface IndexAnswer {
  ids: string[];
  grid: GridCell[];
}

const PRICE = 1;
const REVENUE = 2;

/** Positions [lo, hi) of order k whose key lies within [min, max]. */
function slice(index: BrowseIndex, k: number, min: number, max: number): [number, number] {
  const sorted = index.sorted[k];
  const bound = (value: number, inclusive: boolean) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < value || (inclusive && sorted[mid] === value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [bound(min, false), bound(max, true)];
}

/** Adds the kept per-cell counters of the cells whose flags match to the counts. */
function countCells(kept: number[], cells: Int32Array, mask: number, want: number): void {
  for (let c = 0; c < cells.length; c++) if ((c & mask) === want) cells[c] += kept[c] ?? 0;
}

/**
 * Browse answered from the index, exactly as buildBrowseQuery and buildBrowseGrid answer it from PostgreSQL (ADR 0081):
 * the grid counts matches per cell under every filter but category, type and the verified flags; the page walks the sort order, or,
 * when fewer rows match than such a walk would pass, picks the matches' ranks gathered while they were counted.
 * `search` is the request's tsquery tree, `empty` for one without lexemes, undefined for no search.
 */
export function answerFromIndex(index: BrowseIndex, query: BrowseListingsQuery, search: TsQueryNode | 'empty' | undefined): IndexAnswer {
  if (search === 'empty') return { ids: [], grid: [] };
  const categoryCount = index.categories.length;
  const wantedCategory = query.category === undefined ? -1 : (index.categoryIndex.get(query.category) ?? -2);
  const wantedType = query.listing_type === 'all' ? -1 : query.listing_type === 'auction' ? 0 : query.listing_type === 'fixed' ? 1 : -2;
  // featured and the verified flags (D24): a live cell is shown when (cell & mask) === want. The grid counts under
  // featured alone (`counting`): the verified flags are facets (D24), so the cells keep them apart.
  const { mask, want } = flagFilter(query);
  const counting = flagFilter({ featured: query.featured });
  const shownFlags = (cell: number) => (cell & mask) === want;
  const minPrice = query.min_price ?? -Infinity;
  const maxPrice = query.max_price ?? Infinity;
  const minRevenue = query.min_revenue ?? -Infinity;
  const maxRevenue = query.max_revenue ?? Infinity;
  const priced = query.min_price !== undefined || query.max_price !== undefined;
  const earning = query.min_revenue !== undefined || query.max_revenue !== undefined;
  const { liveCell, mark } = index;
  const [, price, revenue] = index.keys;
  // wantedPair[category * 2 + type]: whether the page shows that pair (the grid counts every pair).
  const wantedPair = new Uint8Array(categoryCount * 2);
  for (let pair = 0; pair < wantedPair.length; pair++) {
    wantedPair[pair] = (wantedCategory === -1 || pair >> 1 === wantedCategory) && (wantedType === -1 || (pair & 1) === wantedType) ? 1 : 0;
  }
  const k = SORT_KEYS.indexOf(query.sort_by);
  // Every filter but the ranges and the search, per cell: one read where a slot's cell is known.
  const shownCell = new Uint8Array(categoryCount * CELLS_PER_CATEGORY);
  for (let c = 0; c < shownCell.length; c++) shownCell[c] = (c & counting.mask) === counting.want && wantedPair[c >> FLAG_BITS] === 1 && shownFlags(c) ? 1 : 0;

  const set = search ? evaluate(search, (lexeme) => index.postings.get(lexeme)) : null;
  // The set is marked only where a slot outside it must be told apart (a pass over other slots, a walk).
  let stamp = -1;
  const markSet = () => {
    if (!set || stamp >= 0) return;
    stamp = index.nextStamp();
    for (let i = 0; i < set.slots.length; i++) mark[set.slots[i]] = stamp;
  };
  const inSearch = (s: number) => set === null || (mark[s] === stamp) !== set.negated;
  /** Every filter but category, type and the verified flags: what a grid cell counts. */
  const counted = (s: number) =>
    liveCell[s] !== DEAD_CELL &&
    (liveCell[s] & counting.mask) === counting.want &&
    (!priced || (price[s] >= minPrice && price[s] <= maxPrice)) &&
    (!earning || (revenue[s] >= minRevenue && revenue[s] <= maxRevenue)) &&
    inSearch(s);

  // Where matches can be: a positive search's slots, or the narrowest range slice, or every slot.
  const priceSlice = priced ? slice(index, PRICE, minPrice, maxPrice) : null;
  const revenueSlice = earning ? slice(index, REVENUE, minRevenue, maxRevenue) : null;
  // `along`: the sort key whose order the slice is of (0 for the set's slots).
  type Source = { slots: ArrayLike<number>; from: number; to: number; isSet: boolean; along: number };
  const sources: Source[] = [];
  if (set && !set.negated) sources.push({ slots: set.slots, from: 0, to: set.slots.length, isSet: true, along: 0 });
  if (priceSlice) sources.push({ slots: index.order[PRICE], from: priceSlice[0], to: priceSlice[1], isSet: false, along: PRICE });
  if (revenueSlice) sources.push({ slots: index.order[REVENUE], from: revenueSlice[0], to: revenueSlice[1], isSet: false, along: REVENUE });
  const narrowest = sources.reduce<Source | null>((best, source) => (best === null || source.to - source.from < best.to - best.from ? source : best), null);

  const cells = new Int32Array(categoryCount * CELLS_PER_CATEGORY);
  // The shown matches' slots, gathered while counting a source: -1 when they were not.
  let gathered = -1;
  const found = index.scratch();
  const ranged = priceSlice && !revenueSlice ? PRICE : revenueSlice && !priceSlice ? REVENUE : 0;
  if (!set && ranged && index.blockCells === categoryCount * CELLS_PER_CATEGORY) {
    // One range and no search: whole blocks from the prefix counts, the two partial ones slot by slot.
    const [lo, hi] = ranged === PRICE ? (priceSlice as [number, number]) : (revenueSlice as [number, number]);
    const order = index.order[ranged];
    const blocks = index.blocks[ranged];
    const width = index.blockCells;
    const first = Math.ceil(lo / BLOCK);
    const last = Math.floor(hi / BLOCK);
    const scan = (from: number, to: number) => {
      for (let i = from; i < to; i++) if (counted(order[i])) cells[liveCell[order[i]]]++;
    };
    if (first >= last) {
      scan(lo, hi);
    } else {
      for (let c = 0; c < width; c++) {
        if ((c & counting.mask) !== counting.want) continue;
        cells[c] += blocks[last * width + c] - blocks[first * width + c];
      }
      scan(lo, first * BLOCK);
      scan(last * BLOCK, hi);
    }
  } else if (narrowest) {
    // One tight pass: the source's slots are checked against the other filters and counted, and the shown ones kept.
    // Only what a filter asks for is read: at a million slots each array read is a cache miss.
    const { slots, from, to } = narrowest;
    const checkSearch = set !== null && !narrowest.isSet;
    if (checkSearch) markSet();
    const negated = set?.negated ?? false;
    let n = 0;
    if (narrowest.isSet) {
      for (let i = from; i < to; i++) {
        const s = slots[i];
        const cell = liveCell[s];
        if (cell === DEAD_CELL || (cell & counting.mask) !== counting.want) continue;
        if (priced && (price[s] < minPrice || price[s] > maxPrice)) continue;
        if (earning && (revenue[s] < minRevenue || revenue[s] > maxRevenue)) continue;
        cells[cell]++;
        if (shownCell[cell] === 1) found[n++] = s;
      }
    } else {
      // A range's slice, read in its order: the cells and the other range's key are kept along it (ADR 0082); an
      // order holds live slots only, so no cell along it is DEAD_CELL.
      const cellAlong = index.cellAlong[narrowest.along];
      const other = index.otherAlong[narrowest.along];
      const [otherMin, otherMax, otherRanged] = narrowest.along === PRICE ? [minRevenue, maxRevenue, earning] : [minPrice, maxPrice, priced];
      for (let i = from; i < to; i++) {
        const cell = cellAlong[i];
        if ((cell & counting.mask) !== counting.want) continue;
        if (otherRanged && (other[i] < otherMin || other[i] > otherMax)) continue;
        if (checkSearch && (mark[slots[i]] === stamp) === negated) continue;
        cells[cell]++;
        if (shownCell[cell] === 1) found[n++] = slots[i];
      }
    }
    gathered = n;
  } else if (set && !priced && !earning) {
    // Everything but a set (`-word`): the kept counters less the set's live members, not a pass over every slot.
    countCells(index.cells, cells, counting.mask, counting.want);
    for (let i = 0; i < set.slots.length; i++) {
      const cell = liveCell[set.slots[i]];
      if (cell !== DEAD_CELL && (cell & counting.mask) === counting.want) cells[cell]--;
    }
  } else if (set) {
    markSet();
    for (let s = 0; s < index.size; s++) if (counted(s)) cells[liveCell[s]]++;
  } else {
    countCells(index.cells, cells, counting.mask, counting.want);
  }
  const grid: GridCell[] = [];
  let total = 0;
  for (let c = 0; c < cells.length; c++) {
    if (cells[c] === 0) continue;
    const pair = c >> FLAG_BITS;
    const cat = pair >> 1;
    const t = pair & 1;
    grid.push({
      category: index.categories[cat],
      listing_type: t === 0 ? 'auction' : 'fixed',
      revenue_verified: (c & REVENUE_VERIFIED_BIT) !== 0,
      traffic_verified: (c & TRAFFIC_VERIFIED_BIT) !== 0,
      n: cells[c],
    });
    if (wantedPair[pair] === 1 && shownFlags(c)) total += cells[c];
  }

  const offset = (query.page - 1) * query.limit;
  if (total <= offset) return { ids: [], grid };
  const byCells = !set && !(priceSlice && k !== PRICE) && !(revenueSlice && k !== REVENUE) && index.blockCells === categoryCount * CELLS_PER_CATEGORY;
  const ids = choosePage(index, {
    sortKey: k,
    descending: query.sort_order !== 'asc',
    offset,
    need: offset + query.limit,
    total,
    shownCell,
    price: priced ? [minPrice, maxPrice] : null,
    revenue: earning ? [minRevenue, maxRevenue] : null,
    inSearch: set ? (s) => (markSet(), inSearch(s)) : null,
    keySlice: k === PRICE && priceSlice ? priceSlice : k === REVENUE && revenueSlice ? revenueSlice : null,
    slice: gathered < 0 && narrowest ? { along: narrowest.along, from: narrowest.from, to: narrowest.to } : null,
    gathered,
    found,
    wantedCells: byCells ? [...shownCell.keys()].filter((c) => shownCell[c] === 1) : null,
  });
  return { ids, grid };
}
