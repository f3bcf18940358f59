import type { BrowseListingsQuery } from '@market/contracts';
import type { GridCell } from '../browse-query';
import { BLOCK, DEAD_CELL, SORT_KEYS, type BrowseIndex } from './browse-index';
import { CELLS_PER_CATEGORY, FLAG_BITS, REVENUE_VERIFIED_BIT, TRAFFIC_VERIFIED_BIT, flagFilter } from './browse-index.layout';
import { evaluate } from './posting-sets';
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

/**
 * Positions [offset, need) in rank order (descending: from the highest) of the first `n` ranks in `ranks` (which it
 * reorders). Few ranks are sorted; many keep only the `need` best in a heap, so a page of a large match set costs a pass
 * over it, not its sort.
 */
export function pickRanks(ranks: Int32Array, n: number, offset: number, need: number, descending: boolean): number[] {
  const out: number[] = [];
  if (n <= 4096 || need * 4 >= n) {
    const sorted = ranks.subarray(0, n).sort();
    for (let i = offset; i < Math.min(need, n); i++) out.push(descending ? sorted[n - 1 - i] : sorted[i]);
    return out;
  }
  // A max-heap of the `need` smallest values; descending ranks enter as -rank - 1, so the smallest are the highest.
  const heap = new Int32Array(need);
  let size = 0;
  const siftDown = (at: number) => {
    const value = heap[at];
    for (;;) {
      let child = at * 2 + 1;
      if (child >= size) break;
      if (child + 1 < size && heap[child + 1] > heap[child]) child++;
      if (heap[child] <= value) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = value;
  };
  for (let i = 0; i < n; i++) {
    const value = descending ? -ranks[i] - 1 : ranks[i];
    if (size < need) {
      let at = size++;
      while (at > 0 && heap[(at - 1) >> 1] < value) {
        heap[at] = heap[(at - 1) >> 1];
        at = (at - 1) >> 1;
      }
      heap[at] = value;
    } else if (value < heap[0]) {
      heap[0] = value;
      siftDown(0);
    }
  }
  const best = heap.subarray(0, size).sort();
  for (let i = offset; i < size; i++) out.push(descending ? -best[i] - 1 : best[i]);
  return out;
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
  const rankK = index.rank[k];

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
  const shown = (s: number) => counted(s) && wantedPair[liveCell[s] >> FLAG_BITS] === 1 && shownFlags(liveCell[s]);

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
        if (wantedPair[cell >> FLAG_BITS] === 1 && shownFlags(cell)) found[n++] = s;
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
        if (wantedPair[cell >> FLAG_BITS] === 1 && shownFlags(cell)) found[n++] = slots[i];
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

  const descending = query.sort_order !== 'asc';
  const offset = (query.page - 1) * query.limit;
  const need = offset + query.limit;
  if (total <= offset) return { ids: [], grid };
  // A walk of the sort order passes about need × span / total slots; the gathered ranks cost one more pass over them.
  const walk = k === PRICE && priceSlice ? priceSlice : k === REVENUE && revenueSlice ? revenueSlice : ([0, index.order[k].length] as [number, number]);
  const walkCost = (need * (walk[1] - walk[0])) / total;
  const order = index.order[k];
  if (gathered >= 0 && gathered <= walkCost) {
    // The kept slots become their ranks in place.
    for (let i = 0; i < gathered; i++) found[i] = rankK[found[i]];
    return { ids: pickRanks(found, gathered, offset, need, descending).map((r) => index.ids[order[r]]), grid };
  }
  if (gathered < 0 && narrowest && narrowest.to - narrowest.from + total < walkCost) {
    markSet();
    let n = 0;
    for (let i = narrowest.from; i < narrowest.to; i++) {
      const s = narrowest.slots[i];
      if (shown(s)) found[n++] = rankK[s];
    }
    return { ids: pickRanks(found, n, offset, need, descending).map((r) => index.ids[order[r]]), grid };
  }
  markSet();
  const slots: number[] = [];
  // With no search and no range but the sort key's, whether a slot is shown depends on its cell alone: a block's
  // prefix counts say how many it shows, so blocks before the page (or showing none) are passed whole.
  const byCells = !set && !(priceSlice && k !== PRICE) && !(revenueSlice && k !== REVENUE) && index.blockCells === categoryCount * CELLS_PER_CATEGORY;
  const wantedCells: number[] = [];
  if (byCells) {
    for (let c = 0; c < index.blockCells; c++) if (wantedPair[c >> FLAG_BITS] === 1 && (c & mask) === want) wantedCells.push(c);
  }
  const blocks = index.blocks[k];
  const width = index.blockCells;
  const shownIn = (block: number) => {
    let n = 0;
    for (const c of wantedCells) n += blocks[(block + 1) * width + c] - blocks[block * width + c];
    return n;
  };
  let seen = 0;
  let i = descending ? walk[1] - 1 : walk[0];
  while (descending ? i >= walk[0] : i < walk[1]) {
    if (byCells) {
      // At a block's first position (its last, walking down) with the whole block inside the walk.
      const block = descending ? (i + 1) / BLOCK - 1 : i / BLOCK;
      const whole = Number.isInteger(block) && block * BLOCK >= walk[0] && (block + 1) * BLOCK <= walk[1];
      if (whole) {
        const n = shownIn(block);
        if (seen + n <= offset) {
          seen += n;
          i += descending ? -BLOCK : BLOCK;
          continue;
        }
      }
    }
    const s = order[i];
    i += descending ? -1 : 1;
    if (!shown(s)) continue;
    if (seen++ >= offset) slots.push(s);
    if (seen >= need) break;
  }
  return { ids: slots.map((s) => index.ids[s]), grid };
}
