import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { BrowseListingsQuerySchema, RPC } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase } from '@market/server-kit';
import { createTestDatabase, eventually, type TestDatabase, signingAs } from '@market/server-kit/testing';
import { LISTINGS_DATABASE } from '../listings.database';
import { buildBrowseGrid, buildBrowseQuery, totalAndFacets } from './browse-query';
import { ListingCountsRepository } from '../stats/listing-counts.repository';
import { buildListing } from '../testing/listing.factory';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import { LISTING_COLUMNS, ListingsRepository } from './listings.repository';
import { BrowseIndexFeed } from './browse-index/browse-index.feed';

const MIGRATIONS = [...KIT_MIGRATIONS, ...LISTINGS_DATABASE.migrations];

describe('listings browse', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let listings: ListingsRepository;
  const seller = randomUUID();
  // What the service answers: the page, and the total and facets from the counts grid.
  const browse = async (raw: Record<string, unknown>) => {
    const query = BrowseListingsQuerySchema.parse(raw);
    const { listings: rows, grid } = await listings.browse(query);
    return { listings: rows, ...totalAndFacets(grid, query) };
  };
  const titles = async (query: Record<string, unknown>) => (await browse(query)).listings.map((l) => l.title);

  const live = async (overrides: Parameters<typeof buildListing>[0]) => {
    const created = await listings.insert(seller, buildListing(overrides), 'pending');
    return (await listings.approve(created.id))!;
  };

  beforeAll(async () => {
    db = await createTestDatabase('listings');
    ds = signingAs(await openServiceDatabase({ url: db.url, schema: 'listings', entities: [], migrations: MIGRATIONS }), 'listings-service');
    listings = new ListingsRepository(ds);
    await live({ title: 'Vegan recipes blog', description: 'Hundreds of plant based recipes with a loyal newsletter audience.', starting_price: 3000, monthly_revenue: 800 });
    await live({ title: 'Project tracker SaaS', category: 'SaaS', description: 'Subscription software for small agencies with low churn.', starting_price: 90000, monthly_revenue: 9000 });
    await live({ title: 'Camping gear store', category: 'E-commerce', listing_type: 'fixed', description: 'Dropshipping store for outdoor equipment and tents.', starting_price: 15000, monthly_revenue: 2500 });
    await live({ title: 'Baking recipe newsletter', category: 'Newsletter', description: 'Weekly baking newsletter with sponsors and 20k readers.', starting_price: 7000, monthly_revenue: 1200 });
    await listings.insert(seller, buildListing({ title: 'Hidden pending recipes site' }), 'pending');
    await listings.insert(seller, buildListing({ title: 'Hidden draft recipes site' }), 'draft');
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('approval makes a listing active until approval plus its duration (D16)', async () => {
    const created = await listings.insert(seller, buildListing({ duration_days: 14 }), 'pending');
    const approved = await listings.approve(created.id, new Date('2030-01-01T00:00:00Z'));
    expect(approved).toMatchObject({ status: 'active' });
    expect(approved!.expires_at!.toISOString()).toBe('2030-01-15T00:00:00.000Z');
    expect(await listings.approve(created.id)).toBeNull();
    await ds.query(`UPDATE listings SET status = 'sold' WHERE id = $1`, [created.id]);
  });

  it('shows only active listings, newest first, with the total', async () => {
    const page = await browse({});
    expect(page.total).toBe(4);
    expect(page.listings.map((l) => l.title)).toEqual(['Baking recipe newsletter', 'Camping gear store', 'Project tracker SaaS', 'Vegan recipes blog']);
    expect(page.listings[0]).toMatchObject({ starting_price: 7000, price: 7000, monthly_revenue: 1200, status: 'active' });
  });

  it('searches title and description with full-text search (stemmed)', async () => {
    expect(await titles({ search: 'recipe' })).toEqual(['Baking recipe newsletter', 'Vegan recipes blog']);
    expect(await titles({ search: 'subscription software' })).toEqual(['Project tracker SaaS']);
    expect(await titles({ search: 'tents OR sponsors' })).toEqual(['Baking recipe newsletter', 'Camping gear store']);
  });

  it('filters by category, type, price and revenue', async () => {
    expect(await titles({ category: 'SaaS' })).toEqual(['Project tracker SaaS']);
    expect(await titles({ listing_type: 'fixed' })).toEqual(['Camping gear store']);
    expect(await titles({ min_price: '5000', max_price: '20000' })).toEqual(['Baking recipe newsletter', 'Camping gear store']);
    expect(await titles({ min_revenue: 1000, max_revenue: 3000 })).toEqual(['Baking recipe newsletter', 'Camping gear store']);
  });

  it('counts each category and type under the other filters: the trigger-kept counts and the counted matches agree', async () => {
    const all = await browse({});
    expect(all.facets).toEqual({ category: { Blog: 1, 'E-commerce': 1, Newsletter: 1, SaaS: 1 }, listing_type: { auction: 3, fixed: 1 }, verified: { revenue: 0, traffic: 0 } });
    // A category filter narrows the type counts and the total, not the category counts (they say what each would show).
    const blogs = await browse({ category: 'Blog' });
    expect([blogs.total, blogs.facets]).toEqual([1, { category: all.facets.category, listing_type: { auction: 1, fixed: 0 }, verified: { revenue: 0, traffic: 0 } }]);
    const fixed = await browse({ listing_type: 'fixed' });
    expect([fixed.total, fixed.facets.category, fixed.facets.listing_type]).toEqual([1, { 'E-commerce': 1 }, all.facets.listing_type]);
    // A search counts its matches (not the kept table), by the same rule.
    const recipes = await browse({ search: 'recipe', listing_type: 'auction' });
    expect([recipes.total, recipes.facets]).toEqual([2, { category: { Blog: 1, Newsletter: 1 }, listing_type: { auction: 2, fixed: 0 }, verified: { revenue: 0, traffic: 0 } }]);
    const priced = await browse({ min_price: '5000', max_price: '20000', category: 'E-commerce' });
    expect([priced.total, priced.facets]).toEqual([1, { category: { 'E-commerce': 1, Newsletter: 1 }, listing_type: { auction: 0, fixed: 1 }, verified: { revenue: 0, traffic: 0 } }]);
  });

  it('sorts by price both ways and by revenue, and pages', async () => {
    expect(await titles({ sort_by: 'price', sort_order: 'asc' })).toEqual(['Vegan recipes blog', 'Baking recipe newsletter', 'Camping gear store', 'Project tracker SaaS']);
    expect(await titles({ sort_by: 'price', sort_order: 'desc' })).toEqual(['Project tracker SaaS', 'Camping gear store', 'Baking recipe newsletter', 'Vegan recipes blog']);
    expect((await titles({ sort_by: 'monthly_revenue' }))[0]).toBe('Project tracker SaaS');
    const second = await browse({ sort_by: 'price', sort_order: 'asc', limit: 3, page: 2 });
    expect(second).toMatchObject({ total: 4 });
    expect(second.listings.map((l) => l.title)).toEqual(['Project tracker SaaS']);
    expect(await browse({ page: 9 })).toMatchObject({ listings: [], total: 4 });
  });

  it('keeps the trigger-kept totals equal to the rows through inserts, status, category, type, feature and delete changes', async () => {
    const actual = async () =>
      ds.query(`SELECT category, listing_type, featured, count(*)::int AS n FROM listings WHERE status = 'active' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
    const kept = async () => ds.query(`SELECT category, listing_type, featured, active::int AS n FROM listing_counts WHERE active > 0 ORDER BY 1, 2, 3`);
    const extra = await live({ title: 'Counted newsletter', category: 'Newsletter' });
    await ds.query(`UPDATE listings SET featured = true WHERE id = $1`, [extra.id]);
    await ds.query(`UPDATE listings SET category = 'Blog', listing_type = 'fixed' WHERE id = $1`, [extra.id]);
    expect(await kept()).toEqual(await actual());
    expect((await browse({ category: 'Blog', listing_type: 'fixed', featured: 'true' })).total).toBe(1);
    await ds.query(`UPDATE listings SET status = 'paused' WHERE id = $1`, [extra.id]);
    expect((await browse({ category: 'Blog', listing_type: 'fixed' })).total).toBe(0);
    await ds.query(`UPDATE listings SET status = 'active', title = 'Counted again' WHERE id = $1`, [extra.id]);
    expect(await kept()).toEqual(await actual());
    // A session with another search_path (a maintenance script, a bulk load) still keeps the counts.
    await ds.transaction(async (manager) => {
      await manager.query('SET LOCAL search_path TO public');
      await manager.query(`UPDATE listings.listings SET featured = false WHERE id = $1`, [extra.id]);
    });
    expect(await kept()).toEqual(await actual());
    await ds.query(`DELETE FROM listings WHERE id = $1`, [extra.id]);
    expect(await kept()).toEqual(await actual());
    expect((await browse({})).total).toBe(4);
    expect((await browse({ search: 'recipe', category: 'Blog' })).total).toBe(1);
  });

  it('filters to verified revenue or traffic (D24), counting the total and facets under the filter, and notes the flags\' changes', async () => {
    const [vegan, tracker, camping] = await Promise.all(['Vegan recipes blog', 'Project tracker SaaS', 'Camping gear store'].map(async (title) =>
      (await ds.query(`SELECT id FROM listings WHERE title = $1`, [title]))[0].id as string));
    const noted = async (id: string) => (await ds.query('SELECT count(*)::int AS n FROM browse_changes WHERE listing_id = $1', [id]))[0].n as number;
    const before = await noted(tracker);
    await ds.query('UPDATE listings SET revenue_verified = true WHERE id = ANY($1)', [[tracker, camping]]);
    await ds.query('UPDATE listings SET traffic_verified = true WHERE id = ANY($1)', [[camping, vegan]]);
    // A flag's change is one the browse index must see (ADR 0081): the change feed notes it.
    expect(await noted(tracker)).toBe(before + 1);
    try {
      const revenue = await browse({ verified_revenue: 'true' });
      expect(revenue.listings.map((l) => [l.title, l.revenue_verified])).toEqual([['Camping gear store', true], ['Project tracker SaaS', true]]);
      // listing_counts knows nothing of the flags: the verified listings are counted apart. Each facet is under every
      // filter but its own: verified traffic here is traffic among the verified revenue.
      expect([revenue.total, revenue.facets]).toEqual([2, { category: { 'E-commerce': 1, SaaS: 1 }, listing_type: { auction: 1, fixed: 1 }, verified: { revenue: 2, traffic: 1 } }]);
      const saas = await browse({ verified_revenue: 'true', category: 'SaaS' });
      expect([saas.total, saas.facets]).toEqual([1, { category: revenue.facets.category, listing_type: { auction: 1, fixed: 0 }, verified: { revenue: 1, traffic: 0 } }]);
      // No verified filter: the facets count each flag over the whole market.
      expect((await browse({})).facets.verified).toEqual({ revenue: 2, traffic: 2 });
      // A search counts the matches: the same rule.
      expect((await browse({ search: 'recipe', verified_traffic: 'true' })).facets).toEqual({
        category: { Blog: 1 }, listing_type: { auction: 1, fixed: 0 }, verified: { revenue: 0, traffic: 1 },
      });
      expect(await titles({ verified_revenue: 'true', verified_traffic: 'true' })).toEqual(['Camping gear store']);
      expect(await titles({ verified_traffic: 'true', search: 'recipe' })).toEqual(['Vegan recipes blog']);
      expect(await titles({ verified_traffic: 'true', sort_by: 'price', sort_order: 'desc', max_price: '50000' })).toEqual(['Camping gear store', 'Vegan recipes blog']);
      // false is no filter.
      expect((await browse({ verified_revenue: 'false', verified_traffic: 'false' })).total).toBe(4);
    } finally {
      await ds.query('UPDATE listings SET revenue_verified = false, traffic_verified = false');
    }
    expect(await noted(tracker)).toBe(before + 2);
  });

  it('finds each page through an index-only scan of a covering sort index, never a scan or sort of the table', async () => {
    await ds.query('VACUUM ANALYZE listings');
    await ds.query('SET enable_seqscan = off');
    await ds.query('SET enable_bitmapscan = off');
    try {
      for (const raw of [
        {},
        { sort_by: 'price', sort_order: 'asc' },
        { sort_by: 'price', min_price: '100', min_revenue: '10' },
        { sort_by: 'monthly_revenue' },
        { category: 'Blog' },
        { category: 'Blog', sort_by: 'price', sort_order: 'asc' },
        { listing_type: 'auction', max_revenue: '5000' },
        // The verified filters' partial indexes (D24): only the verified listings' entries, newest first.
        { verified_revenue: 'true' },
        { verified_traffic: 'true', category: 'Blog', featured: 'true' },
        { verified_revenue: 'true', verified_traffic: 'true', min_price: '100' },
      ]) {
        const query = buildBrowseQuery(BrowseListingsQuerySchema.parse(raw), LISTING_COLUMNS);
        const plan = (await ds.query(`EXPLAIN ${query.sql}`, query.params)).map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/Index Only Scan (Backward )?using listings_active_\w+_idx/);
        expect(plan).not.toMatch(/Seq Scan on listings/);
        // Nothing sorts the table: at most the page's own rows are put back in order after the join.
        expect(plan).not.toMatch(/Sort Key: (?!page\.sort_key)/);
      }
      // Another order sorts only the verified rows.
      const sorted = buildBrowseQuery(BrowseListingsQuerySchema.parse({ verified_revenue: 'true', sort_by: 'price' }), LISTING_COLUMNS);
      const sortedPlan = (await ds.query(`EXPLAIN ${sorted.sql}`, sorted.params)).map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      expect(sortedPlan).toMatch(/Index Only Scan using listings_active_revenue_verified_idx/);
      expect(sortedPlan).not.toMatch(/Seq Scan on listings/);
      // The counts without a search or range: the kept table, and the verified listings' entries through their indexes.
      for (const raw of [{}, { verified_traffic: 'true', featured: 'false' }]) {
        const grid = buildBrowseGrid(BrowseListingsQuerySchema.parse(raw));
        const plan = (await ds.query(`EXPLAIN ${grid.sql}`, grid.params)).map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/Index Only Scan using listings_active_revenue_verified_idx/);
        expect(plan).toMatch(/Index Only Scan using listings_active_traffic_verified_idx/);
        expect(plan).not.toMatch(/Seq Scan on listings/);
      }
    } finally {
      await ds.query('RESET enable_seqscan');
      await ds.query('RESET enable_bitmapscan');
    }
  });

  it('refuses queries it cannot answer exactly', () => {
    expect(BrowseListingsQuerySchema.safeParse({ category: 'Crypto' }).success).toBe(false);
    expect(BrowseListingsQuerySchema.safeParse({ min_price: '10.5' }).success).toBe(false);
    expect(BrowseListingsQuerySchema.safeParse({ sort_by: 'title' }).success).toBe(false);
    expect(BrowseListingsQuerySchema.safeParse({ page: '0' }).success).toBe(false);
  });
});

// Through the bus, as the gateway asks (D24, ADR 0084): the filter, the cards' flags, and the total and facets under it,
// from the browse index once it has loaded (the SQL path's answer is the case above; the two are held alike by
// browse-index.int-spec.ts).
describe('browse filtered to verified figures over the bus', () => {
  let under: ListingsUnderTest;

  beforeAll(async () => {
    under = await startListingsUnderTest();
  });
  afterAll(async () => {
    await under?.stop();
  });

  it('answers verified_revenue=true with only the listings whose revenue is verified, and counts the facets under it', async () => {
    await eventually(() => expect(under.svc.app.get(BrowseIndexFeed).size).not.toBeNull(), 20_000);
    const seller = randomUUID();
    const blog = await under.live(seller, { title: 'Verified revenue blog', category: 'Blog' });
    const saas = await under.live(seller, { title: 'Verified revenue SaaS', category: 'SaaS', listing_type: 'fixed' });
    const shop = await under.live(seller, { title: 'Verified traffic shop', category: 'E-commerce' });
    await under.live(seller, { title: 'Unverified newsletter', category: 'Newsletter' });
    await under.ds.query('UPDATE listings SET revenue_verified = true WHERE id = ANY($1)', [[blog.id, saas.id]]);
    await under.ds.query('UPDATE listings SET traffic_verified = true WHERE id = ANY($1)', [[saas.id, shop.id]]);
    const browse = (raw: Record<string, string>) => under.svc.rpc.call(RPC.listings.browse, BrowseListingsQuerySchema.parse(raw), null);
    const cards = (page: Awaited<ReturnType<typeof browse>>) => page.listings.map((card) => [card.title, card.revenue_verified, card.traffic_verified]);

    // Until the index has applied the flags' changes (the notice of their commit is on its way).
    await eventually(async () => {
      const page = await browse({ verified_revenue: 'true' });
      expect(cards(page)).toEqual([['Verified revenue SaaS', true, true], ['Verified revenue blog', true, false]]);
      expect([page.total, page.pages, page.facets]).toEqual([2, 1, { category: { Blog: 1, SaaS: 1 }, listing_type: { auction: 1, fixed: 1 }, verified: { revenue: 2, traffic: 1 } }]);
    });
    const blogs = await browse({ verified_revenue: 'true', category: 'Blog' });
    expect([cards(blogs), blogs.total, blogs.facets]).toEqual([[['Verified revenue blog', true, false]], 1, { category: { Blog: 1, SaaS: 1 }, listing_type: { auction: 1, fixed: 0 }, verified: { revenue: 1, traffic: 0 } }]);
    expect(cards(await browse({ verified_revenue: 'true', verified_traffic: 'true' }))).toEqual([['Verified revenue SaaS', true, true]]);
    expect((await browse({ verified_revenue: 'false' })).total).toBe(4);
  });
});

describe('listing counts for the admin views', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let listings: ListingsRepository;

  beforeAll(async () => {
    db = await createTestDatabase('listing_counts');
    ds = signingAs(await openServiceDatabase({ url: db.url, schema: 'listings', entities: [], migrations: MIGRATIONS }), 'listings-service');
    listings = new ListingsRepository(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('counts all, active and sold listings per seller and overall', async () => {
    const [alice, bob, carol] = [randomUUID(), randomUUID(), randomUUID()];
    const a1 = await listings.insert(alice, buildListing(), 'pending');
    await listings.approve(a1.id);
    const a2 = await listings.insert(alice, buildListing(), 'pending');
    await listings.approve(a2.id);
    await ds.query(`UPDATE listings SET status = 'sold' WHERE id = $1`, [a2.id]);
    await listings.insert(bob, buildListing(), 'draft');

    const counts = new ListingCountsRepository(ds);
    expect(await counts.stats()).toEqual({ total_listings: 3, active_listings: 1 });
    const rows = await counts.sellerCounts([alice, bob, carol]);
    expect(Object.fromEntries(rows.map((r) => [r.seller_id, [r.listing_count, r.active, r.sold]]))).toEqual({ [alice]: [2, 1, 1], [bob]: [1, 0, 0] });
  });
});
