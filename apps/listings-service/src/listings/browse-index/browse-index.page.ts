import { BLOCK, type BrowseIndex } from './browse-index';
import { OTHER_RANGE } from './browse-index.layout';

const PRICE = 1;
const REVENUE = 2;

/** What a page is chosen under: the query's filters as answerFromIndex read them, and what its counting pass left. */
export interface PageRequest {
  /** The sort key (SORT_KEYS' position) and direction. */
  sortKey: number;
  descending: boolean;
  offset: number;
  need: number;
  /** Shown matches in all (the page's total). */
  total: number;
  /** shownCell[cell] === 1: a live slot of that cell passes every filter but the ranges and the search. */
  shownCell: Uint8Array;
  /** The ranges asked for, [min, max] inclusive, or null. */
  price: [number, number] | null;
  revenue: [number, number] | null;
  /** Whether a slot is in the search's set, or null without a search (marks the set first when it must). */
  inSearch: ((slot: number) => boolean) | null;
  /** The sort key's range as positions of its order (the walk's bounds), or null for the whole order. */
  keySlice: [number, number] | null;
  /** A range's slice of its own order, when the counting pass did not gather the shown matches. */
  slice: { along: number; from: number; to: number } | null;
  /** The shown matches' slots gathered while counting (found[0, gathered)), or -1 when they were not. */
  gathered: number;
  found: Int32Array;
  /** Cells shown, when a block of the sort order can be passed whole from its prefix counts (no search, no other range). */
  wantedCells: number[] | null;
}

/**
 * The page's listing ids: the sort order walked from its start, or the gathered matches (or a range's slice) ranked and
 * picked, whichever passes fewer positions. A walk reads each position's cell and range keys along the order (cellAlong,
 * otherAlong: sequential reads) and a slot's own fields only past them. Matches that lie unlike their share along the order
 * (a word whose listings all sell high, sorted by price) would make the walk far longer than its estimate: past twice
 * that, it gives up for the pick (ADR 0081, 0082).
 */
export function choosePage(index: BrowseIndex, page: PageRequest): string[] {
  const { sortKey: k, need, total, gathered, slice } = page;
  const walk = page.keySlice ?? [0, index.order[k].length];
  // A walk passes about need × span / total positions; the gathered ranks cost one pass over them.
  const walkCost = (need * (walk[1] - walk[0])) / total;
  if (gathered >= 0 && gathered <= walkCost) return pickGathered(index, page);
  if (gathered < 0 && slice && slice.to - slice.from + total < walkCost) return pickFromSlice(index, page, slice);
  const fallback = gathered >= 0 || slice !== null;
  const walked = walkOrder(index, page, walk, fallback ? 2 * walkCost + BLOCK : Infinity);
  if (walked) return walked;
  return gathered >= 0 ? pickGathered(index, page) : pickFromSlice(index, page, slice!);
}

/** The gathered slots become their ranks in place, and the page's are picked. */
function pickGathered(index: BrowseIndex, page: PageRequest): string[] {
  const { found, gathered } = page;
  const rank = index.rank[page.sortKey];
  for (let i = 0; i < gathered; i++) found[i] = rank[found[i]];
  return idsAt(index, page, pickRanks(found, gathered, page.offset, page.need, page.descending));
}

/** A range's slice read along its own order (cells and the other range's key in step), its shown slots ranked and picked. */
function pickFromSlice(index: BrowseIndex, page: PageRequest, slice: { along: number; from: number; to: number }): string[] {
  const { shownCell, inSearch, found } = page;
  const slots = index.order[slice.along];
  const cells = index.cellAlong[slice.along];
  const other = index.otherAlong[slice.along];
  const otherRange = OTHER_RANGE[slice.along] === PRICE ? page.price : OTHER_RANGE[slice.along] === REVENUE ? page.revenue : null;
  const rank = index.rank[page.sortKey];
  const inOrder = slice.along === page.sortKey;
  let n = 0;
  for (let i = slice.from; i < slice.to; i++) {
    if (shownCell[cells[i]] !== 1) continue;
    if (otherRange && (other[i] < otherRange[0] || other[i] > otherRange[1])) continue;
    const s = slots[i];
    if (inSearch && !inSearch(s)) continue;
    found[n++] = inOrder ? i : rank[s];
  }
  return idsAt(index, page, pickRanks(found, n, page.offset, page.need, page.descending));
}

/** The walk of the sort order within `walk`, or null once it has checked more than `budget` positions one by one. */
function walkOrder(index: BrowseIndex, page: PageRequest, walk: [number, number], budget: number): string[] | null {
  const { sortKey: k, descending, offset, need, shownCell, inSearch, wantedCells } = page;
  const order = index.order[k];
  const cells = index.cellAlong[k];
  const other = index.otherAlong[k];
  // A range of the sort key is the walk's bounds; the other range is kept along price and revenue, read per slot along
  // created_at.
  const priceCheck = k === PRICE ? null : page.price;
  const revenueCheck = k === REVENUE ? null : page.revenue;
  const priceAlong = OTHER_RANGE[k] === PRICE;
  const revenueAlong = OTHER_RANGE[k] === REVENUE;
  const [, prices, revenues] = index.keys;
  const shownAt = (i: number): boolean => {
    if (shownCell[cells[i]] !== 1) return false;
    if (priceCheck) {
      const value = priceAlong ? other[i] : prices[order[i]];
      if (value < priceCheck[0] || value > priceCheck[1]) return false;
    }
    if (revenueCheck) {
      const value = revenueAlong ? other[i] : revenues[order[i]];
      if (value < revenueCheck[0] || value > revenueCheck[1]) return false;
    }
    return inSearch === null || inSearch(order[i]);
  };
  const blocks = index.blocks[k];
  const width = index.blockCells;
  const shownIn = (block: number) => {
    let n = 0;
    for (const c of wantedCells!) n += blocks[(block + 1) * width + c] - blocks[block * width + c];
    return n;
  };
  const ranks: number[] = [];
  let seen = 0;
  let checked = 0;
  let i = descending ? walk[1] - 1 : walk[0];
  while (descending ? i >= walk[0] : i < walk[1]) {
    if (wantedCells) {
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
    if (++checked > budget) return null;
    const at = i;
    i += descending ? -1 : 1;
    if (!shownAt(at)) continue;
    if (seen++ >= offset) ranks.push(at);
    if (seen >= need) break;
  }
  return idsAt(index, page, ranks);
}

/** Ids of positions of the sort order. */
function idsAt(index: BrowseIndex, page: PageRequest, ranks: number[]): string[] {
  const order = index.order[page.sortKey];
  return ranks.map((r) => index.ids[order[r]]);
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
