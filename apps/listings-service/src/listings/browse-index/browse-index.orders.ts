import type { BrowseIndex } from './browse-index';
import { BLOCK, CELLS_PER_CATEGORY, OTHER_RANGE, SORT_KEYS } from './browse-index.layout';

// The browse index's three sort orders and what is kept along them (ADR 0081, 0082): built after a load or a
// compaction, merged after a batch of changes.

/** (key, id) ascending, for order k. */
export function comparator(index: BrowseIndex, k: number): (a: number, b: number) => number {
  const key = index.keys[k];
  const ids = index.ids;
  return (a, b) => key[a] - key[b] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0);
}

/** Makes `order` order k: its sorted keys, each slot's rank, the cells and key kept along it, and its block counts. */
export function setOrder(index: BrowseIndex, k: number, order: Int32Array): void {
  const sorted = new Float64Array(order.length);
  const rank = index.rank[k];
  const key = index.keys[k];
  for (let i = 0; i < order.length; i++) {
    sorted[i] = key[order[i]];
    rank[order[i]] = i;
  }
  index.order[k] = order;
  index.sorted[k] = sorted;
  index.rank[k] = rank;
  index.cellAlong[k] = new Uint16Array(order.length);
  index.otherAlong[k] = new Float64Array(OTHER_RANGE[k] < 0 ? 0 : order.length);
  for (let i = 0; i < order.length; i++) writeAlong(index, k, i, order[i]);
  buildBlocks(index, k);
}

/** Slot s's cell and other range key at position i of order k. */
export function writeAlong(index: BrowseIndex, k: number, i: number, s: number): void {
  index.cellAlong[k][i] = index.liveCell[s];
  if (OTHER_RANGE[k] >= 0) index.otherAlong[k][i] = index.keys[OTHER_RANGE[k]][s];
}

/** Order k's per-block prefix counts of every cell. */
export function buildBlocks(index: BrowseIndex, k: number): void {
  const order = index.order[k];
  const width = index.categories.length * CELLS_PER_CATEGORY;
  const rows = Math.floor(order.length / BLOCK) + 1;
  const blocks = new Int32Array(rows * width);
  const running = new Int32Array(width);
  for (let i = 0; i < order.length; i++) {
    if (i % BLOCK === 0) blocks.set(running, (i / BLOCK) * width);
    running[index.cell(order[i])]++;
  }
  if (order.length % BLOCK === 0) blocks.set(running, (rows - 1) * width);
  index.blocks[k] = blocks;
  index.blockCells = width;
}

/** Each order that moved, without the touched and dead slots, merged with the touched live ones sorted. */
export function mergeOrders(index: BrowseIndex, touched: number[], moved: number): void {
  if (moved === 0) return;
  const stamp = index.nextStamp();
  // Each slot once, however often a batch named its listing.
  const incoming: number[] = [];
  for (const s of touched) {
    if (index.mark[s] === stamp) continue;
    index.mark[s] = stamp;
    if (index.alive[s]) incoming.push(s);
  }
  for (let k = 0; k < SORT_KEYS.length; k++) {
    if (!(moved & (1 << k))) continue;
    const compare = comparator(index, k);
    const added = Int32Array.from(incoming).sort(compare);
    const old = index.order[k];
    const next = new Int32Array(index.live);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < old.length || j < added.length) {
      if (i < old.length && (!index.alive[old[i]] || index.mark[old[i]] === stamp)) {
        i++;
      } else if (j >= added.length || (i < old.length && compare(old[i], added[j]) < 0)) {
        next[n++] = old[i++];
      } else {
        next[n++] = added[j++];
      }
    }
    setOrder(index, k, next);
  }
}
