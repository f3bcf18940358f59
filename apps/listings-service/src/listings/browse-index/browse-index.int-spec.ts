import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { BrowseListingsQuerySchema, type BrowseListingsResponse } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase } from '@market/server-kit';
import { createTestDatabase, eventually, signingAs, type TestDatabase } from '@market/server-kit/testing';
import { LISTINGS_DATABASE } from '../../listings.database';
import { BrowseService } from '../browse.service';
import { ListingsRepository } from '../listings.repository';
import { SearchVocabulary } from '../search-vocabulary';
import { BrowseIndexFeed } from './browse-index.feed';
import { seededRandom } from '../../testing/seeded-random';


const SEARCHES = ['coffee', 'coffee roasting', 'tea -coffee', 'garden or chess', '-blog', 'fitness tea', '"coffee shop"', 'the', 'travel -travel', 'roasted'];
const CATEGORIES = ['Blog', 'SaaS', 'E-commerce', 'Newsletter'];

function randomQuery(r: (n: number) => number): Record<string, string> {
  const raw: Record<string, string> = {};
  if (r(3) === 0) raw.search = SEARCHES[r(SEARCHES.length)];
  if (r(2)) raw.category = CATEGORIES[r(CATEGORIES.length)];
  if (r(3) === 0) raw.listing_type = r(2) ? 'auction' : 'fixed';
  if (r(5) === 0) raw.featured = r(2) ? 'true' : 'false';
  // The verified filters (D24); `false` is no filter and must answer as its absence does.
  if (r(3) === 0) raw.verified_revenue = r(4) ? 'true' : 'false';
  if (r(4) === 0) raw.verified_traffic = r(4) ? 'true' : 'false';
  if (r(3) === 0) raw.min_price = String(1000 * r(8));
  if (r(3) === 0) raw.max_price = String(1000 * (4 + r(8)));
  if (r(4) === 0) raw.min_revenue = String(100 * r(6));
  raw.sort_by = ['created_at', 'price', 'monthly_revenue'][r(3)];
  raw.sort_order = r(2) ? 'asc' : 'desc';
  raw.limit = String(1 + r(20));
  raw.page = String(1 + r(5));
  return raw;
}

// The browse index (ADR 0081) against PostgreSQL: for the same rows, every query answers as the SQL path does (page
// order, total, pages and facets), and what commits later (bids, edits, listings that leave or arrive, transactions
// that commit out of order) reaches the index.
describe('the browse index against PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let listings: ListingsRepository;
  let feed: BrowseIndexFeed;
  let indexed: BrowseService;
  let sql: BrowseService;
  const seller = randomUUID();
  const ask = (service: BrowseService, raw: Record<string, string>) => service.browse(BrowseListingsQuerySchema.parse(raw));
  // The cards too: the index's page reads only the card columns (ADR 0082), the SQL path whole rows.
  const shape = (answer: BrowseListingsResponse) => ({ ids: answer.listings.map((listing) => listing.id), ...answer });

  /** Both paths answer every one of `count` seeded queries alike. */
  const agree = async (seed: number, count: number) => {
    const r = seededRandom(seed);
    for (let i = 0; i < count; i++) {
      const raw = randomQuery(r);
      const [fromIndex, fromSql] = await Promise.all([ask(indexed, raw), ask(sql, raw)]);
      expect({ raw, ...shape(fromIndex) }).toEqual({ raw, ...shape(fromSql) });
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase('listings');
    ds = signingAs(await openServiceDatabase({ url: db.url, schema: 'listings', entities: [], migrations: [...KIT_MIGRATIONS, ...LISTINGS_DATABASE.migrations] }), 'listings-service');
    listings = new ListingsRepository(ds);
    // 600 listings with few distinct prices, revenues and creation times, so ties are everywhere and the id decides them;
    // a quarter with verified revenue, a fifth with verified traffic, some with both (D24).
    await ds.query(
      `INSERT INTO listings (id, seller_id, title, description, category, listing_type, status, featured, website_url, monthly_revenue,
         annual_revenue, monthly_traffic, profit_margin, business_age_months, starting_price, current_bid, duration_days, created_at,
         revenue_verified, traffic_verified)
       SELECT gen_random_uuid(), $1, (ARRAY['Coffee shop', 'Tea garden', 'Chess club', 'Fitness blog', 'Travel guide', 'Roasting coffee beans'])[1 + g % 6] || ' ' || g,
         (ARRAY['A blog about tea.', 'Coffee roasting guides and a shop.', 'Garden and chess.', repeat('Nothing special   at all. ', 60)])[1 + g % 4],
         (ARRAY['Blog', 'SaaS', 'E-commerce', 'Newsletter'])[1 + (g * 7) % 4], CASE WHEN g % 3 = 0 THEN 'fixed' ELSE 'auction' END,
         CASE WHEN g % 11 = 0 THEN 'sold' ELSE 'active' END, g % 9 = 0, 'https://site' || g || '.example.com', 100 * (g % 7), 1200 * (g % 7), 1000, 50, 12,
         1000 * (1 + g % 12), CASE WHEN g % 5 = 0 THEN 1000 * (2 + g % 12) END, 7, timestamptz '2026-01-01' + (g % 40) * interval '1 hour',
         g % 4 = 1, g % 10 IN (1, 6)
       FROM generate_series(1, 600) AS g`,
      [seller],
    );
    feed = new BrowseIndexFeed(ds, null);
    feed.onApplicationBootstrap();
    await eventually(() => expect(feed.size).not.toBeNull(), 20_000);
    indexed = new BrowseService(listings, new SearchVocabulary(ds, null), feed);
    sql = new BrowseService(listings, new SearchVocabulary(ds, null), new BrowseIndexFeed(ds, { BROWSE_INDEX: 'off' }));
  });
  afterAll(async () => {
    await feed?.onApplicationShutdown();
    await ds?.destroy();
    await db?.drop();
  });

  it('loads every active listing and answers 300 varied queries exactly as the SQL path does', async () => {
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM listings WHERE status = 'active'`);
    expect(feed.size).toBe(n);
    expect(await feed.answer(BrowseListingsQuerySchema.parse({ search: '"coffee shop"' }))).toBeNull();
    expect(await feed.answer(BrowseListingsQuerySchema.parse({ search: 'coffee' }))).not.toBeNull();
    await agree(1, 300);
  });

  it('follows what commits after the load: bids, edits of text and filters, verified flags, listings sold, added and deleted', async () => {
    const [a, b, c, d] = (await ds.query(`SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 4`)).map((row: { id: string }) => row.id);
    // A source connected and another lapsed (D24): updates of the flags alone, which only the change feed tells the index.
    const [gainsRevenue] = (await ds.query(`SELECT id FROM listings WHERE status = 'active' AND NOT revenue_verified ORDER BY id DESC LIMIT 1`)).map((row: { id: string }) => row.id);
    const [losesTraffic] = (await ds.query(`SELECT id FROM listings WHERE status = 'active' AND traffic_verified ORDER BY id DESC LIMIT 1`)).map((row: { id: string }) => row.id);
    /** Every listing the index shows under a verified filter, page by page. */
    const verified = async (flag: 'verified_revenue' | 'verified_traffic') => {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const answer = await feed.answer(BrowseListingsQuerySchema.parse({ [flag]: 'true', limit: 100, page }));
        if (!answer) return null;
        ids.push(...answer.ids);
        if (answer.ids.length < 100) return ids;
      }
    };
    expect(await verified('verified_revenue')).not.toContain(gainsRevenue);
    expect(await verified('verified_traffic')).toContain(losesTraffic);
    await ds.query('UPDATE listings SET revenue_verified = true WHERE id = $1', [gainsRevenue]);
    await ds.query('UPDATE listings SET traffic_verified = false WHERE id = $1', [losesTraffic]);
    await ds.query('UPDATE listings SET current_bid = 987654 WHERE id = $1', [a]);
    await ds.query(`UPDATE listings SET title = 'Espresso bar', category = 'SaaS', featured = NOT featured WHERE id = $1`, [b]);
    await ds.query(`UPDATE listings SET status = 'sold' WHERE id = $1`, [c]);
    await ds.query('DELETE FROM listings WHERE id = $1', [d]);
    const added = await listings.approve((await listings.insert(seller, (await import('../../testing/listing.factory')).buildListing({ title: 'Espresso cart' }), 'pending')).id);
    await eventually(async () => {
      const espresso = await ask(indexed, { search: 'espresso' });
      expect(espresso.listings.map((listing) => listing.id).sort()).toEqual([b, added!.id].sort());
      expect((await ask(indexed, { sort_by: 'price', limit: '1' })).listings[0].id).toBe(a);
      // From the index itself: the SQL path would show the flags at once.
      expect(await verified('verified_revenue')).toContain(gainsRevenue);
      expect(await verified('verified_traffic')).not.toContain(losesTraffic);
    });
    expect(feed.size).toBe((await ds.query(`SELECT count(*)::int AS n FROM listings WHERE status = 'active'`))[0].n);
    await agree(2, 150);
  });

  it('applies a change whose transaction committed after a later one (a sequence number seen late)', async () => {
    const [early, late] = (await ds.query(`SELECT id FROM listings WHERE status = 'active' ORDER BY id DESC LIMIT 2`)).map((row: { id: string }) => row.id);
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // Takes its sequence number now, commits last.
      await runner.query(`UPDATE listings SET title = 'Sourdough bakery' WHERE id = $1`, [early]);
      await ds.query(`UPDATE listings SET title = 'Sourdough school' WHERE id = $1`, [late]);
      await eventually(async () => expect((await ask(indexed, { search: 'sourdough' })).listings.map((listing) => listing.id)).toEqual([late]));
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    await eventually(async () => expect((await ask(indexed, { search: 'sourdough' })).total).toBe(2));
    await agree(3, 100);
  });

  it('applies a change whose transaction was still open while a replica loaded its index', async () => {
    const [open] = (await ds.query(`SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1 OFFSET 7`)).map((row: { id: string }) => row.id);
    const runner = ds.createQueryRunner();
    await runner.connect();
    const late = new BrowseIndexFeed(ds, null);
    try {
      await runner.startTransaction();
      await runner.query(`UPDATE listings SET title = 'Kombucha brewery' WHERE id = $1`, [open]);
      // A later change commits, so the open one's number is below the highest when the new replica loads.
      await ds.query(`UPDATE listings SET featured = NOT featured WHERE id = (SELECT id FROM listings WHERE status = 'active' AND id <> $1 ORDER BY id DESC LIMIT 1)`, [open]);
      late.onApplicationBootstrap();
      await eventually(() => expect(late.size).not.toBeNull(), 20_000);
      const service = new BrowseService(listings, new SearchVocabulary(ds, null), late);
      expect((await ask(service, { search: 'kombucha' })).total).toBe(0);
      await runner.commitTransaction();
      // From the index itself (PostgreSQL's path would find it too).
      await eventually(async () => expect((await late.answer(BrowseListingsQuerySchema.parse({ search: 'kombucha' })))?.ids).toEqual([open]));
    } finally {
      await runner.release();
      await late.onApplicationShutdown();
    }
  });
});
