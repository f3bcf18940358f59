import type { BrowseListingsQuery } from '@market/contracts';
import type { GridCell } from '../browse-query';
import { BLOCK, SORT_KEYS, type BrowseIndex } from './browse-index';
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
 * Browse answered from the index, exactly as buildBrowseQuery and buildBrowseGrid answer it from PostgreSQL (ADR 0081):
 * the grid counts matches per category and type under every filter but those two; the page walks the sort order (or,
 * when fewer rows can match than such a walk would pass, sorts the candidates' ranks) and skips the earlier pages.
 * `search` is the request's tsquery tree, `empty` for one without lexemes, undefined for no search.
 */
export function answerFromIndex(index: BrowseIndex, query: BrowseListingsQuery, search: TsQueryNode | 'empty' | undefined): IndexAnswer {
  if (search === 'empty') return { ids: [], grid: [] };
  const categoryCount = index.categories.length;
  const wantedCategory = query.category === undefined ? -1 : (index.categoryIndex.get(query.category) ?? -2);
  const wantedType = query.listing_type === 'all' ? -1 : query.listing_type === 'auction' ? 0 : query.listing_type === 'fixed' ? 1 : -2;
  const wantedFeatured = query.featured === undefined ? -1 : query.featured ? 1 : 0;
  const minPrice = query.min_price ?? -Infinity;
  const maxPrice = query.max_price ?? Infinity;
  const minRevenue = query.min_revenue ?? -Infinity;
  const maxRevenue = query.max_revenue ?? Infinity;
  const priced = query.min_price !== undefined || query.max_price !== undefined;
  const earning = query.min_revenue !== undefined || query.max_revenue !== undefined;
  const { alive, featured, category, type, mark } = index;
  const [, price, revenue] = index.keys;

  const set = search ? evaluate(search, (lexeme) => index.postings.get(lexeme)) : null;
  const stamp = index.nextStamp();
  if (set) for (let i = 0; i < set.slots.length; i++) mark[set.slots[i]] = stamp;
  const inSearch = (s: number) => set === null || (mark[s] === stamp) !== set.negated;
  /** Every filter but category and type: what a grid cell counts. */
  const counted = (s: number) =>
    alive[s] === 1 &&
    (wantedFeatured < 0 || featured[s] === wantedFeatured) &&
    price[s] >= minPrice && price[s] <= maxPrice && revenue[s] >= minRevenue && revenue[s] <= maxRevenue &&
    inSearch(s);
  const shown = (s: number) =>
    counted(s) && (wantedCategory === -1 || category[s] === wantedCategory) && (wantedType === -1 || type[s] === wantedType);

  // Where matches can be: a positive search's slots, or the narrowest range slice, or every slot.
  const priceSlice = priced ? slice(index, PRICE, minPrice, maxPrice) : null;
  const revenueSlice = earning ? slice(index, REVENUE, minRevenue, maxRevenue) : null;
  type Source = { length: number; slotAt: (i: number) => number };
  const sources: Source[] = [];
  if (set && !set.negated) sources.push({ length: set.slots.length, slotAt: (i) => set.slots[i] });
  if (priceSlice) sources.push({ length: priceSlice[1] - priceSlice[0], slotAt: (i) => index.order[PRICE][priceSlice[0] + i] });
  if (revenueSlice) sources.push({ length: revenueSlice[1] - revenueSlice[0], slotAt: (i) => index.order[REVENUE][revenueSlice[0] + i] });
  const narrowest = sources.reduce<Source | null>((best, source) => (best === null || source.length < best.length ? source : best), null);

  const cells = new Array<number>(categoryCount * 2).fill(0);
  const ranged = priceSlice && !revenueSlice ? PRICE : revenueSlice && !priceSlice ? REVENUE : 0;
  if (!set && ranged && index.blockCells === categoryCount * 4) {
    // One range and no search: whole blocks from the prefix counts, the two partial ones slot by slot.
    const [lo, hi] = ranged === PRICE ? (priceSlice as [number, number]) : (revenueSlice as [number, number]);
    const order = index.order[ranged];
    const blocks = index.blocks[ranged];
    const width = index.blockCells;
    const first = Math.ceil(lo / BLOCK);
    const last = Math.floor(hi / BLOCK);
    const scan = (from: number, to: number) => {
      for (let i = from; i < to; i++) if (counted(order[i])) cells[category[order[i]] * 2 + type[order[i]]]++;
    };
    if (first >= last) {
      scan(lo, hi);
    } else {
      for (let c = 0; c < width; c++) {
        if (wantedFeatured >= 0 && (c & 1) !== wantedFeatured) continue;
        cells[c >> 1] += blocks[last * width + c] - blocks[first * width + c];
      }
      scan(lo, first * BLOCK);
      scan(last * BLOCK, hi);
    }
  } else if (narrowest) {
    for (let i = 0; i < narrowest.length; i++) {
      const s = narrowest.slotAt(i);
      if (counted(s)) cells[category[s] * 2 + type[s]]++;
    }
  } else if (set && !priced && !earning) {
    // Everything but a set (`-word`): the kept counters less the set's live members, not a pass over every slot.
    for (let c = 0; c < categoryCount * 2; c++) {
      for (let f = 0; f < 2; f++) if (wantedFeatured < 0 || wantedFeatured === f) cells[c] += index.cells[c * 2 + f] ?? 0;
    }
    for (let i = 0; i < set.slots.length; i++) {
      const s = set.slots[i];
      if (alive[s] === 1 && (wantedFeatured < 0 || featured[s] === wantedFeatured)) cells[category[s] * 2 + type[s]]--;
    }
  } else if (set) {
    for (let s = 0; s < index.size; s++) if (counted(s)) cells[category[s] * 2 + type[s]]++;
  } else {
    for (let c = 0; c < categoryCount * 2; c++) {
      for (let f = 0; f < 2; f++) if (wantedFeatured < 0 || wantedFeatured === f) cells[c] += index.cells[c * 2 + f] ?? 0;
    }
  }
  const grid: GridCell[] = [];
  let total = 0;
  for (let c = 0; c < cells.length; c++) {
    if (cells[c] === 0) continue;
    const cat = c >> 1;
    const t = c & 1;
    grid.push({ category: index.categories[cat], listing_type: t === 0 ? 'auction' : 'fixed', n: cells[c] });
    if ((wantedCategory === -1 || cat === wantedCategory) && (wantedType === -1 || t === wantedType)) total += cells[c];
  }

  const k = SORT_KEYS.indexOf(query.sort_by);
  const descending = query.sort_order !== 'asc';
  const offset = (query.page - 1) * query.limit;
  const need = offset + query.limit;
  if (total <= offset) return { ids: [], grid };
  // A walk of the sort order passes about need × span / total slots; sorting the candidates costs their number plus
  // the matches' sort. The cheaper one answers.
  const walk = k === PRICE && priceSlice ? priceSlice : k === REVENUE && revenueSlice ? revenueSlice : ([0, index.order[k].length] as [number, number]);
  const walkCost = (need * (walk[1] - walk[0])) / total;
  const sortCost = narrowest ? narrowest.length + total * Math.log2(total + 2) : Infinity;
  const slots: number[] = [];
  if (sortCost < walkCost && narrowest) {
    const ranks = new Int32Array(total);
    const rank = index.rank[k];
    let n = 0;
    for (let i = 0; i < narrowest.length; i++) {
      const s = narrowest.slotAt(i);
      if (shown(s)) ranks[n++] = rank[s];
    }
    ranks.subarray(0, n).sort();
    const order = index.order[k];
    for (let i = offset; i < Math.min(need, n); i++) slots.push(order[descending ? ranks[n - 1 - i] : ranks[i]]);
  } else {
    const order = index.order[k];
    // With no search and no range but the sort key's, whether a slot is shown depends on its cell alone: a block's
    // prefix counts say how many it shows, so blocks before the page (or showing none) are passed whole.
    const byCells = !set && !(priceSlice && k !== PRICE) && !(revenueSlice && k !== REVENUE) && index.blockCells === categoryCount * 4;
    const wantedCells: number[] = [];
    if (byCells) {
      for (let c = 0; c < index.blockCells; c++) {
        const cat = c >> 2;
        const t = (c >> 1) & 1;
        const f = c & 1;
        if ((wantedCategory === -1 || cat === wantedCategory) && (wantedType === -1 || t === wantedType) && (wantedFeatured < 0 || f === wantedFeatured)) wantedCells.push(c);
      }
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
  }
  return { ids: slots.map((s) => index.ids[s]), grid };
}
