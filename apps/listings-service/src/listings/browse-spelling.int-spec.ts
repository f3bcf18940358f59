import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { BrowseListingsQuerySchema } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase } from '@market/server-kit';
import { createTestDatabase, eventually, signingAs, type TestDatabase } from '@market/server-kit/testing';
import { LISTINGS_DATABASE } from '../listings.database';
import { buildListing } from '../testing/listing.factory';
import { BrowseService } from './browse.service';
import { ListingsRepository } from './listings.repository';
import { SearchVocabulary } from './search-vocabulary';
import { BrowseIndexFeed } from './browse-index/browse-index.feed';

// Typo-tolerant browse search (ADR 0080) against PostgreSQL: the vocabulary is the live titles' words (ts_stat), and a
// search is corrected only when, as typed, it matches no live listing at all.
describe('browse search with a misspelled word', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let listings: ListingsRepository;
  const seller = randomUUID();
  const browse = (service: BrowseService, raw: Record<string, unknown>) => service.browse(BrowseListingsQuerySchema.parse(raw));
  /** A browse service whose vocabulary has been read (as it is at start), with the config given. */
  const ready = async (config: { SEARCH_VOCABULARY_MAX_AGE_MS: number } | null = null) => {
    const vocabulary = new SearchVocabulary(ds, config);
    await vocabulary.refresh();
    return new BrowseService(listings, vocabulary, new BrowseIndexFeed(ds, { BROWSE_INDEX: 'off' }));
  };
  const titles = (answer: { listings: Array<{ title: string }> }) => answer.listings.map((listing) => listing.title).sort();
  const live = async (overrides: Parameters<typeof buildListing>[0]) => {
    const created = await listings.insert(seller, buildListing(overrides), 'pending');
    return (await listings.approve(created.id))!;
  };

  beforeAll(async () => {
    db = await createTestDatabase('listings');
    ds = signingAs(await openServiceDatabase({ url: db.url, schema: 'listings', entities: [], migrations: [...KIT_MIGRATIONS, ...LISTINGS_DATABASE.migrations] }), 'listings-service');
    listings = new ListingsRepository(ds);
    await live({ title: 'E-commerce store for camping gear', category: 'E-commerce', description: 'Tents and stoves shipped from two suppliers.', starting_price: 15000 });
    await live({ title: 'Weekly baking newsletter', category: 'Newsletter', description: 'Sourdough and pastry recipes for 20k readers.', starting_price: 4000 });
    await listings.insert(seller, buildListing({ title: 'Pending marketplace for vinyl records' }), 'pending');
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('answers a misspelled search with the listings of its correction, and says which search that was', async () => {
    // Before the vocabulary's first read there is no suggestion, and no search waits for one.
    expect(await browse(new BrowseService(listings, new SearchVocabulary(ds, null), new BrowseIndexFeed(ds, { BROWSE_INDEX: 'off' })), { search: 'ecomerce' })).toMatchObject({ corrected_search: null, total: 0 });
    const service = await ready();
    const answer = await browse(service, { search: 'ecomerce' });
    expect(answer.corrected_search).toBe('e-commerce');
    expect(titles(answer)).toEqual(['E-commerce store for camping gear']);
    expect([answer.total, answer.pages, answer.facets.category]).toEqual([1, 1, { 'E-commerce': 1 }]);
    expect(await browse(service, { search: 'newsleter bakng' })).toMatchObject({ corrected_search: 'newsletter baking', total: 1 });
  });

  it('leaves a search alone that matches as typed, one the filters emptied, and one nothing is close to', async () => {
    const service = await ready();
    expect(await browse(service, { search: 'newsletter' })).toMatchObject({ corrected_search: null, total: 1 });
    // Spelled right, but over the price filter: the filters emptied the page, not the spelling.
    expect(await browse(service, { search: 'newsletter', min_price: 1_000_000 })).toMatchObject({ corrected_search: null, total: 0 });
    expect(await browse(service, { search: 'qwxzvb' })).toMatchObject({ corrected_search: null, total: 0, listings: [] });
    // A correction that still finds nothing under the filters is not offered.
    expect(await browse(service, { search: 'ecomerce', listing_type: 'fixed' })).toMatchObject({ corrected_search: null, total: 0 });
  });

  it("suggests only live listings' words, and learns a new listing's words once the vocabulary is old", async () => {
    const service = await ready({ SEARCH_VOCABULARY_MAX_AGE_MS: 0 });
    // The pending listing's "vinyl" is no live word: nothing to correct "vinyk" to.
    expect(await browse(service, { search: 'vinyk' })).toMatchObject({ corrected_search: null, total: 0 });
    await live({ title: 'Vinyl record shop', category: 'E-commerce', description: 'Rare pressings and turntable parts.' });
    // An old vocabulary answers while the new one is read in the background: the correction arrives a search or two later.
    await eventually(async () => expect(await browse(service, { search: 'vinyk' })).toMatchObject({ corrected_search: 'vinyl', total: 1 }), 5_000);
  });
});
