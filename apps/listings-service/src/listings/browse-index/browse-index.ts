import { createHash } from 'node:crypto';
import { BLOCK, CELLS_PER_CATEGORY, DEAD_CELL, MAX_CATEGORIES, OTHER_RANGE, SORT_KEYS, cellOf, type SortKeyName } from './browse-index.layout';
import { buildBlocks, comparator, mergeOrders, setOrder, writeAlong } from './browse-index.orders';

export { BLOCK, DEAD_CELL, OTHER_RANGE, SORT_KEYS, type SortKeyName };

/** What the browse index keeps of an active listing: its filters, its sort keys and its search lexemes (ADR 0081). */
export interface IndexedListing {
  id: string;
  category: string;
  listing_type: string;
  featured: boolean;
  /** Revenue verified by Stripe, traffic by Google Analytics 4, and current (D24). */
  revenue_verified: boolean;
  traffic_verified: boolean;
  price: number;
  monthly_revenue: number;
  /** created_at in microseconds since the epoch, as PostgreSQL orders it. */
  created_us: number;
  /** The lexemes of its stored `search` tsvector (tsvector_to_array). */
  lexemes: string[];
}

/** One listing's change: its current row when it is active, null when it is not (or is gone). */
export interface IndexChange {
  id: string;
  row: IndexedListing | null;
}


/** 64 bits of a SHA-1 of a listing's lexemes: an edit that changes its words is told from one that does not. */
function lexemeHashes(lexemes: string[]): [number, number] {
  const digest = createHash('sha1').update(lexemes.join('\x1f')).digest();
  return [digest.readInt32LE(0), digest.readInt32LE(4)];
}

const ALL_ORDERS = 0b111;

/**
 * Every active listing's browse fields in typed arrays, one slot each, with three sort orders and a posting list per
 * lexeme: what browse needs to count and order matches without PostgreSQL (ADR 0081). A slot's words never change: an
 * edit of its text takes a new slot and leaves the old one dead, so posting lists only grow at their end and stay
 * ascending; dead slots are compacted away once they are a quarter of the live ones.
 */
export class BrowseIndex {
  /** Slots ever handed out (live and dead). */
  size = 0;
  /** Compactions so far (for the metrics and the tests). */
  compactions = 0;
  /** Live slots. */
  live = 0;
  ids: string[] = [];
  alive = new Uint8Array(0);
  /**
   * liveCell[slot]: the slot's cell (browse-index.layout.ts: category and type, featured, verified revenue and traffic)
   * while it is live, DEAD_CELL once not: the only place a slot's filters but its ranges and words are kept, so a
   * page's pass reads one number per slot.
   */
  liveCell = new Uint16Array(0);
  /** keys[k][slot]: created_us, price, monthly_revenue. */
  keys: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  /** order[k]: live slots ascending by (key, id), as PostgreSQL's ORDER BY key ASC, id ASC; descending is its reverse. */
  order: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];
  /** sorted[k][i] = keys[k][order[k][i]], for binary searches of a range. */
  sorted: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  /**
   * cellAlong[k][i] = liveCell[order[k][i]], and otherAlong[k][i] the other range key (revenue along the price order,
   * price along the revenue order; empty along created_at): a search of two ranges passes one range's slice in order
   * instead of reading each slot's fields at random (ADR 0082).
   */
  cellAlong: Uint16Array[] = [new Uint16Array(0), new Uint16Array(0), new Uint16Array(0)];
  otherAlong: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  /** rank[k][slot]: the slot's position in order[k]. */
  rank: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];
  /**
   * blocks[k]: per block of BLOCK positions of order[k], how many slots of each cell come before it (prefix sums, one
   * row of `blockCells` per block boundary), so a range of a sort key is counted per cell from two rows and at most
   * two partial blocks, not slot by slot.
   */
  blocks: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];
  /** Cells per row of `blocks` when they were built (the categories known then, times CELLS_PER_CATEGORY). */
  blockCells = 0;
  readonly categories: string[] = [];
  readonly categoryIndex = new Map<string, number>();
  readonly postings = new Map<string, number[]>();
  /** Live listings per cell (liveCell's numbers). */
  cells: number[] = [];
  /** A per-query mark: mark[slot] === stamp means "in this query's set", with no clearing between queries. */
  mark = new Uint32Array(0);
  stamp = 0;
  private scratchRanks = new Int32Array(0);
  private hashA = new Int32Array(0);
  private hashB = new Int32Array(0);
  private readonly slotOf = new Map<string, number>();

  /** @param compactAfter dead slots tolerated before a compaction, at the least (a quarter of the live ones above it). */
  constructor(private readonly compactAfter = 1024) {}

  /** Loads listings (no order kept while loading); finish with `sortAll`. */
  add(rows: IndexedListing[]): void {
    for (const row of rows) this.place(row);
  }

  /** Sorts every order from scratch: after a load or a compaction. */
  sortAll(): void {
    const slots = new Int32Array(this.live);
    let n = 0;
    for (let s = 0; s < this.size; s++) if (this.alive[s]) slots[n++] = s;
    for (let k = 0; k < SORT_KEYS.length; k++) setOrder(this, k, slots.slice().sort(comparator(this, k)));
  }

  /** Applies changes (the newest row of each listing): moves, adds and removes slots, then merges the orders. */
  apply(changes: IndexChange[]): void {
    const touched: number[] = [];
    // Which orders moved (a bit per sort key), and whether a cell changed: a bid moves only the price order.
    let moved = 0;
    let recounted = false;
    for (const { id, row } of changes) {
      const existing = this.slotOf.get(id);
      if (!row) {
        // A listing the index never had (a draft, a pending one) moves nothing.
        if (existing !== undefined) {
          this.kill(existing);
          moved = ALL_ORDERS;
        }
        continue;
      }
      const [a, b] = lexemeHashes(row.lexemes);
      if (existing !== undefined && this.hashA[existing] === a && this.hashB[existing] === b) {
        const cell = this.cell(existing);
        const keys = this.keys.map((key) => key[existing]);
        this.uncount(existing);
        this.fill(existing, row);
        this.count(existing);
        keys.forEach((value, k) => {
          if (this.keys[k][existing] !== value) moved |= 1 << k;
        });
        recounted ||= this.cell(existing) !== cell;
        touched.push(existing);
        continue;
      }
      if (existing !== undefined) this.kill(existing);
      touched.push(this.place(row));
      moved = ALL_ORDERS;
    }
    mergeOrders(this, touched, moved);
    // Orders that did not move keep their positions: what changed in place is written where the slot stands.
    for (const s of touched) if (this.alive[s]) for (let k = 0; k < SORT_KEYS.length; k++) writeAlong(this, k, this.rank[k][s], s);
    // A new category widens the cells; a featured or verified flag moved between them.
    if (recounted || this.blockCells !== this.categories.length * CELLS_PER_CATEGORY) for (let k = 0; k < SORT_KEYS.length; k++) if (!(moved & (1 << k))) buildBlocks(this, k);
    if (this.size - this.live > Math.max(this.compactAfter, this.live / 4)) this.compact();
  }

  /** Whether a listing is in the index (active as last applied). */
  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** A new query's mark value: slots marked with an older one read as unmarked. */
  nextStamp(): number {
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.mark.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  /** A buffer of a slot's worth of numbers for one query at a time (queries are synchronous), kept between them. */
  scratch(): Int32Array {
    if (this.scratchRanks.length < this.size) this.scratchRanks = new Int32Array(this.alive.length);
    return this.scratchRanks;
  }

  /** Renumbers the live slots densely and filters the posting lists to match. */
  private compact(): void {
    this.compactions++;
    const to = new Int32Array(this.size).fill(-1);
    let n = 0;
    for (let s = 0; s < this.size; s++) {
      if (!this.alive[s]) continue;
      to[s] = n;
      this.ids[n] = this.ids[s];
      this.hashA[n] = this.hashA[s];
      this.hashB[n] = this.hashB[s];
      for (const key of this.keys) key[n] = key[s];
      this.liveCell[n] = this.liveCell[s];
      this.alive[n] = 1;
      this.slotOf.set(this.ids[n], n);
      n++;
    }
    this.alive.fill(0, n);
    this.liveCell.fill(DEAD_CELL, n);
    this.ids.length = n;
    this.size = n;
    for (const [lexeme, list] of this.postings) {
      let m = 0;
      for (const s of list) if (to[s] >= 0) list[m++] = to[s];
      if (m === 0) this.postings.delete(lexeme);
      else list.length = m;
    }
    // The renumbering keeps every order: each is remapped, not sorted again.
    for (let k = 0; k < SORT_KEYS.length; k++) {
      const next = new Int32Array(this.live);
      let m = 0;
      for (const s of this.order[k]) if (to[s] >= 0) next[m++] = to[s];
      setOrder(this, k, next.subarray(0, m));
    }
  }

  private place(row: IndexedListing): number {
    if (this.size === this.alive.length) this.grow(Math.max(1024, this.size * 2));
    const s = this.size++;
    this.ids[s] = row.id;
    this.fill(s, row);
    [this.hashA[s], this.hashB[s]] = lexemeHashes(row.lexemes);
    this.alive[s] = 1;
    this.live++;
    this.slotOf.set(row.id, s);
    this.count(s);
    for (const lexeme of row.lexemes) {
      const list = this.postings.get(lexeme);
      if (list) list.push(s);
      else this.postings.set(lexeme, [s]);
    }
    return s;
  }

  private fill(s: number, row: IndexedListing): void {
    let category = this.categoryIndex.get(row.category);
    if (category === undefined) {
      if (this.categories.length >= MAX_CATEGORIES) throw new Error(`The browse index tells at most ${MAX_CATEGORIES} categories apart`);
      category = this.categories.push(row.category) - 1;
      this.categoryIndex.set(row.category, category);
    }
    this.liveCell[s] = cellOf(category, row.listing_type === 'auction', row.featured, row.revenue_verified, row.traffic_verified);
    this.keys[0][s] = row.created_us;
    this.keys[1][s] = row.price;
    this.keys[2][s] = row.monthly_revenue;
  }

  private kill(s: number): void {
    this.uncount(s);
    this.alive[s] = 0;
    this.liveCell[s] = DEAD_CELL;
    this.live--;
    this.slotOf.delete(this.ids[s]);
  }

  /** A live slot's cell (browse-index.layout.ts). */
  cell(s: number): number {
    return this.liveCell[s];
  }

  private count(s: number): void {
    const c = this.cell(s);
    this.cells[c] = (this.cells[c] ?? 0) + 1;
  }

  private uncount(s: number): void {
    this.cells[this.cell(s)]--;
  }

  private grow(capacity: number): void {
    const grown = <T extends Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array>(old: T): T => {
      const next = new (old.constructor as new (n: number) => T)(capacity);
      next.set(old);
      return next;
    };
    this.alive = grown(this.alive);
    const liveCell = grown(this.liveCell);
    liveCell.fill(DEAD_CELL, this.liveCell.length);
    this.liveCell = liveCell;
    this.hashA = grown(this.hashA);
    this.hashB = grown(this.hashB);
    this.mark = grown(this.mark);
    this.keys = this.keys.map(grown);
    this.rank = this.rank.map(grown);
  }
}
