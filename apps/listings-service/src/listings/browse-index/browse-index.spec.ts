import { BrowseListingsQuerySchema, type BrowseListingsQuery } from '@market/contracts';
import { totalAndFacets, type GridCell } from '../browse-query';
import { BrowseIndex, type IndexedListing } from './browse-index';
import { answerFromIndex, pickRanks } from './browse-index.query';
import { parseTsQuery, type TsQueryNode } from './ts-query';
import { seededRandom } from '../../testing/seeded-random';


const CATEGORIES = ['Blog', 'SaaS', 'E-commerce', 'Newsletter'] as const;
const WORDS = ['coffe', 'tea', 'garden', 'fit', 'travel', 'blog', 'shop', 'chess'];

function listing(r: (n: number) => number, n: number): IndexedListing {
  const lexemes = WORDS.filter(() => r(3) === 0).sort();
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`.replace(/^0/, String(r(10))),
    category: CATEGORIES[r(CATEGORIES.length)],
    listing_type: r(2) ? 'auction' : 'fixed',
    featured: r(5) === 0,
    // Verified figures (D24) on some listings, both on fewer, so a filter on each and on both has matches.
    revenue_verified: r(3) === 0,
    traffic_verified: r(4) === 0,
    // Few distinct values, so ties are common and the id decides them, as in PostgreSQL.
    price: 1000 * (1 + r(20)),
    monthly_revenue: 100 * r(15),
    created_us: 1_700_000_000_000_000 + r(50) * 1_000_000,
    lexemes,
  };
}

function matches(node: TsQueryNode, words: Set<string>): boolean {
  switch (node.kind) {
    case 'term':
      return words.has(node.lexeme);
    case 'not':
      return !matches(node.arg, words);
    case 'and':
      return matches(node.left, words) && matches(node.right, words);
    case 'or':
      return matches(node.left, words) || matches(node.right, words);
  }
}

/** What PostgreSQL answers, written the plain way: filter, sort by (key, id), slice; count the grid and the facets. */
function reference(rows: IndexedListing[], query: BrowseListingsQuery, search: TsQueryNode | undefined) {
  // The grid counts under every filter but category, type and the verified flags (facets, D24).
  const counted = rows.filter(
    (row) =>
      (query.featured === undefined || row.featured === query.featured) &&
      row.price >= (query.min_price ?? -Infinity) && row.price <= (query.max_price ?? Infinity) &&
      row.monthly_revenue >= (query.min_revenue ?? -Infinity) && row.monthly_revenue <= (query.max_revenue ?? Infinity) &&
      (!search || matches(search, new Set(row.lexemes))),
  );
  const grid = new Map<string, number>();
  for (const row of counted) {
    const cell = `${row.category}|${row.listing_type}|${row.revenue_verified}|${row.traffic_verified}`;
    grid.set(cell, (grid.get(cell) ?? 0) + 1);
  }
  const key = (row: IndexedListing) => (query.sort_by === 'price' ? row.price : query.sort_by === 'monthly_revenue' ? row.monthly_revenue : row.created_us);
  const inCategory = (row: IndexedListing) => !query.category || row.category === query.category;
  const ofType = (row: IndexedListing) => query.listing_type === 'all' || row.listing_type === query.listing_type;
  const revenueHolds = (row: IndexedListing) => !query.verified_revenue || row.revenue_verified;
  const trafficHolds = (row: IndexedListing) => !query.verified_traffic || row.traffic_verified;
  const shown = counted
    .filter((row) => inCategory(row) && ofType(row) && revenueHolds(row) && trafficHolds(row))
    .sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (query.sort_order === 'desc') shown.reverse();
  const offset = (query.page - 1) * query.limit;
  // Each facet under every filter but its own.
  const category: Record<string, number> = {};
  for (const row of counted.filter((r) => ofType(r) && revenueHolds(r) && trafficHolds(r))) category[row.category] = (category[row.category] ?? 0) + 1;
  const typed = counted.filter((r) => inCategory(r) && revenueHolds(r) && trafficHolds(r));
  const placed = counted.filter((r) => inCategory(r) && ofType(r));
  return {
    ids: shown.slice(offset, offset + query.limit).map((row) => row.id),
    grid: [...grid].map(([cell, n]) => ({ cell, n })).sort((a, b) => a.cell.localeCompare(b.cell)),
    total: shown.length,
    facets: {
      category,
      listing_type: { auction: typed.filter((r) => r.listing_type === 'auction').length, fixed: typed.filter((r) => r.listing_type === 'fixed').length },
      verified: { revenue: placed.filter((r) => r.revenue_verified && trafficHolds(r)).length, traffic: placed.filter((r) => r.traffic_verified && revenueHolds(r)).length },
    },
  };
}

/** A grid's rows summed per cell (the index keeps featured apart, the reference does not), zeros left out. */
function merged(grid: GridCell[]) {
  const sums = new Map<string, number>();
  for (const row of grid) {
    const cell = `${row.category}|${row.listing_type}|${row.revenue_verified}|${row.traffic_verified}`;
    sums.set(cell, (sums.get(cell) ?? 0) + row.n);
  }
  return [...sums].filter(([, n]) => n !== 0).map(([cell, n]) => ({ cell, n })).sort((a, b) => a.cell.localeCompare(b.cell));
}

function randomQuery(r: (n: number) => number): { query: BrowseListingsQuery; search?: TsQueryNode } {
  const raw: Record<string, string> = {};
  if (r(2)) raw.category = CATEGORIES[r(CATEGORIES.length)];
  if (r(3) === 0) raw.listing_type = r(2) ? 'auction' : 'fixed';
  if (r(4) === 0) raw.featured = r(2) ? 'true' : 'false';
  // `false` is no filter (contracts): sent now and then, it must answer as its absence does.
  if (r(3) === 0) raw.verified_revenue = r(4) ? 'true' : 'false';
  if (r(3) === 0) raw.verified_traffic = r(4) ? 'true' : 'false';
  if (r(3) === 0) raw.min_price = String(1000 * r(12));
  if (r(3) === 0) raw.max_price = String(1000 * (8 + r(14)));
  if (r(4) === 0) raw.min_revenue = String(100 * r(10));
  if (r(5) === 0) raw.max_revenue = String(100 * (5 + r(10)));
  raw.sort_by = ['created_at', 'price', 'monthly_revenue'][r(3)];
  raw.sort_order = r(2) ? 'asc' : 'desc';
  raw.limit = String(1 + r(30));
  // Now and then a deep page, which passes whole blocks of the order.
  raw.page = String(1 + (r(4) === 0 ? r(120) : r(6)));
  const texts = [undefined, "'coffe'", "'tea' & 'shop'", "'garden' | 'chess'", "!'blog'", "'fit' & !'travel'", "!'tea' & !'shop'", "!( 'coffe' | 'tea' )", "'nothere'"];
  const text = texts[r(texts.length)];
  const search = text === undefined ? undefined : (parseTsQuery(text) as TsQueryNode);
  return { query: BrowseListingsQuerySchema.parse(raw), search };
}

describe('the browse index (ADR 0081)', () => {
  it('answers every query as the plain filter, sort and count would, through loads, edits, removals and compactions', () => {
    const r = seededRandom(11);
    const index = new BrowseIndex(150);
    const rows = new Map<string, IndexedListing>();
    let next = 0;
    const initial = Array.from({ length: 1500 }, () => listing(r, next++));
    for (const row of initial) rows.set(row.id, row);
    index.add(initial);
    index.sortAll();
    for (let round = 0; round < 40; round++) {
      for (let q = 0; q < 25; q++) {
        const { query, search } = randomQuery(r);
        const { ids, grid, total, facets } = reference([...rows.values()], query, search);
        const got = answerFromIndex(index, query, search);
        expect({ round, q, ids: got.ids, grid: merged(got.grid) }).toEqual({ round, q, ids, grid });
        expect(totalAndFacets(got.grid, query)).toEqual({ total, facets });
      }
      // A round of changes: new listings, changes of price, featured and verified flags (D24: a source connected,
      // lapsed or revoked), text edits, listings that leave and return.
      const ids = [...rows.keys()];
      const changes = [];
      const count = 1 + r(120);
      // Some rounds only move prices or flags, as a storm of bids or a day's verification refresh does: no slot comes
      // or goes.
      const inPlace = round % 3 === 2;
      for (let c = 0; c < count; c++) {
        const roll = inPlace ? [2, 3, 5, 6][r(4)] : r(7);
        if (roll === 0 || ids.length === 0) {
          const row = listing(r, next++);
          rows.set(row.id, row);
          changes.push({ id: row.id, row });
        } else {
          const id = ids[r(ids.length)];
          const old = rows.get(id);
          if (roll === 1 || !old) {
            rows.delete(id);
            changes.push({ id, row: null });
          } else {
            const row = {
              ...old,
              price: roll === 2 ? 1000 * (1 + r(20)) : old.price,
              featured: roll === 3 ? !old.featured : old.featured,
              lexemes: roll === 4 ? WORDS.filter(() => r(2) === 0).sort() : old.lexemes,
              revenue_verified: roll === 5 ? !old.revenue_verified : old.revenue_verified,
              traffic_verified: roll === 6 ? !old.traffic_verified : old.traffic_verified,
            };
            rows.set(id, row);
            changes.push({ id, row });
          }
        }
      }
      index.apply(changes);
      expect(index.live).toBe(rows.size);
    }
    expect(index.compactions).toBeGreaterThan(0);
  });

  it('never counts a dead slot, even under every flag at once (DEAD_CELL has every flag bit), on every counting path', () => {
    const r = seededRandom(23);
    const index = new BrowseIndex();
    const rows = Array.from({ length: 600 }, (_, n) => ({ ...listing(r, n), featured: true, revenue_verified: true, traffic_verified: true, lexemes: ['coffe', ...(n % 2 ? ['tea'] : [])] }));
    index.add(rows);
    index.sortAll();
    // A third leave, not enough for a compaction: their slots stay, dead, in the posting lists.
    const gone = new Set(rows.filter((_, n) => n % 3 === 0).map((row) => row.id));
    index.apply([...gone].map((id) => ({ id, row: null })));
    expect(index.compactions).toBe(0);
    const left = rows.filter((row) => !gone.has(row.id));
    const flags = { featured: 'true', verified_revenue: 'true', verified_traffic: 'true', limit: '50' };
    // The kept counters; a word's slots; the counters less a word's slots; a range's blocks; two ranges' slice less a word.
    for (const [extra, text] of [[{}, undefined], [{}, "'tea'"], [{}, "!'tea'"], [{ min_price: '5000' }, undefined], [{ min_price: '5000', max_revenue: '900' }, "!'tea'"]] as const) {
      const query = BrowseListingsQuerySchema.parse({ ...flags, ...extra });
      const search = text === undefined ? undefined : (parseTsQuery(text) as TsQueryNode);
      const got = answerFromIndex(index, query, search);
      const { ids, grid, total, facets } = reference(left, query, search);
      expect({ text, extra, ids: got.ids, grid: merged(got.grid) }).toEqual({ text, extra, ids, grid });
      expect(totalAndFacets(got.grid, query)).toEqual({ total, facets });
    }
  });

  it('counts an unknown category as no match while its facets still count the others', () => {
    const index = new BrowseIndex();
    index.add([listing(seededRandom(3), 1)]);
    index.sortAll();
    const got = answerFromIndex(index, BrowseListingsQuerySchema.parse({ category: 'Newsletter' }), undefined);
    expect(got.grid.reduce((n, cell) => n + cell.n, 0)).toBe(1);
  });

  it('matches nothing for a search without lexemes', () => {
    const index = new BrowseIndex();
    index.add([listing(seededRandom(5), 1)]);
    index.sortAll();
    expect(answerFromIndex(index, BrowseListingsQuerySchema.parse({}), 'empty')).toEqual({ ids: [], grid: [] });
  });

  it('gives up a walk of the sort order whose matches all lie at its far end, for the gathered matches or the range', () => {
    // A word whose listings all sell high (sorted cheapest first), and a revenue range whose listings are all the
    // oldest (sorted newest first): the walk's estimate (need × span / total) is far short of where the matches are.
    const r = seededRandom(29);
    const rows = Array.from({ length: 20_000 }, (_, n) => {
      const late = n % 4 === 0;
      return {
        ...listing(r, n),
        price: late ? 1_000_000 + r(1000) * 1000 : 1000 * (1 + r(900)),
        monthly_revenue: late ? 50_000 + r(100) : r(10_000),
        created_us: 1_700_000_000_000_000 + (late ? 0 : 1_000_000_000) + n * 1000,
        lexemes: late ? ['late'] : ['early'],
      };
    });
    const index = new BrowseIndex();
    index.add(rows);
    index.sortAll();
    const cases: Array<[Record<string, string>, TsQueryNode | undefined]> = [
      [{ search: 'late', sort_by: 'price', sort_order: 'asc', page: '3' }, parseTsQuery("'late'") as TsQueryNode],
      [{ search: 'late', category: 'Blog', sort_by: 'price', sort_order: 'asc', page: '2', limit: '10' }, parseTsQuery("'late'") as TsQueryNode],
      [{ min_revenue: '50000', category: 'SaaS', sort_by: 'created_at', sort_order: 'desc', page: '4' }, undefined],
      [{ min_revenue: '50000', listing_type: 'fixed', sort_by: 'price', sort_order: 'asc', page: '2' }, undefined],
    ];
    for (const [raw, search] of cases) {
      const query = BrowseListingsQuerySchema.parse(raw);
      const expected = reference(rows, query, search);
      const got = answerFromIndex(index, query, search);
      expect({ raw, ids: got.ids, total: totalAndFacets(got.grid, query).total }).toEqual({ raw, ids: expected.ids, total: expected.total });
      expect(got.ids).toHaveLength(query.limit);
    }
  });

  it('picks a page of ranks as a full sort would, from few ranks and from many (the heap)', () => {
    const r = seededRandom(17);
    for (let round = 0; round < 60; round++) {
      const n = round % 3 === 0 ? 1 + r(3000) : 5000 + r(40_000);
      // Distinct ranks in a random order, as a set's slots give them.
      const ranks = Int32Array.from({ length: n }, (_, i) => i * 3 + r(3));
      for (let i = n - 1; i > 0; i--) {
        const j = r(i + 1);
        [ranks[i], ranks[j]] = [ranks[j], ranks[i]];
      }
      const sorted = [...ranks].sort((a, b) => a - b);
      const limit = 1 + r(100);
      const offset = limit * r(round % 2 ? 10 : Math.max(1, Math.floor(n / limit) + 2));
      const descending = r(2) === 0;
      const expected = (descending ? [...sorted].reverse() : sorted).slice(offset, offset + limit);
      expect({ round, n, got: pickRanks(ranks, n, offset, offset + limit, descending) }).toEqual({ round, n, got: expected });
    }
  });
});
