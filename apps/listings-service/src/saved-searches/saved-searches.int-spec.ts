import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MAX_SAVED_SEARCHES, RPC, SAVED_SEARCH_MATCHES_PER_EVENT, type Actor, type EventEnvelope, type EventName, type SavedSearchFilters } from '@market/contracts';
import { AppError, busIdentity, generateBusKeys } from '@market/server-kit';
import { UnsubscribeLinks } from './unsubscribe-links';
import { eventually, testCaller } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import type { ListingRecord } from '../listings/listings.repository';
import { buildListing } from '../testing/listing.factory';

/** Saved searches on a real database and bus (ADR 0074): their owner's only, at most 20, matched from listing.approved. */
describe('saved searches and their matches (ADR 0074)', () => {
  const foreign = generateBusKeys();
  let under: ListingsUnderTest;
  let ds: DataSource;

  const call = <D extends (typeof RPC.listings)[keyof typeof RPC.listings]>(definition: D, input: unknown, actor: Actor | null) =>
    under.svc.rpc.call(definition as never, input as never, actor) as Promise<never>;
  const failure = async (pending: Promise<unknown>): Promise<AppError> => {
    const outcome = await pending.then(() => null, (error: unknown) => error);
    if (!(outcome instanceof AppError)) throw new Error(`expected a typed error, got ${String(outcome)}`);
    return outcome;
  };
  const save = (actor: Actor, filters: Partial<SavedSearchFilters>, name = `search ${randomUUID().slice(0, 6)}`, alerts = true) =>
    call(RPC.listings.savedSearchCreate, { name, filters, alerts }, actor) as Promise<{ id: string; name: string; alerts: boolean; matches: number }>;
  /** Announces a live listing as listings-service's outbox would; `id` repeats an event (a redelivery). */
  const approved = async (listing: ListingRecord, id: string = randomUUID()) => {
    const payload = {
      listing_id: listing.id,
      seller_id: listing.seller_id,
      title: listing.title,
      website_url: listing.website_url,
      listing_type: listing.listing_type,
      auction_type: listing.auction_type,
      starting_price: Number(listing.starting_price),
      buy_now_price: null,
      updated_at: new Date().toISOString(),
      approved_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    };
    await under.publish({ id, name: 'listing.approved', occurred_at: new Date().toISOString(), request_id: null, payload } as EventEnvelope<EventName>);
    return id;
  };
  /** The saved_search.matched announcements naming a search, one row per match. */
  const matchedEvents = async (searchId: string): Promise<Array<{ listing_id: string; unsubscribe_token: string; user_id: string }>> =>
    ds.query(
      `SELECT o.payload->>'listing_id' AS listing_id, m->>'unsubscribe_token' AS unsubscribe_token, m->>'user_id' AS user_id
       FROM outbox o CROSS JOIN jsonb_array_elements(o.payload->'matches') AS m
       WHERE o.name = 'saved_search.matched' AND m->>'search_id' = $1 ORDER BY o.seq`,
      [searchId],
    );
  const matchRows = async (searchId: string) => (await ds.query('SELECT listing_id FROM saved_search_matches WHERE search_id = $1', [searchId])).length as number;

  beforeAll(async () => {
    under = await startListingsUnderTest();
    ds = under.ds;
  });
  afterAll(async () => {
    await under?.stop();
  });

  it("keeps a user's searches to themselves: another user's id is a 404 on read, change and delete", async () => {
    const [ann, bob] = [await testCaller(under.svc.env, { role: 'regular' }), await testCaller(under.svc.env, { role: 'regular' })];
    const search = await save(ann, { category: 'Blog', max_price: 5000 }, 'Cheap blogs');
    expect(search).toMatchObject({ name: 'Cheap blogs', alerts: true, matches: 0 });
    const listed = (await call(RPC.listings.savedSearchList, {}, ann)) as { saved_searches: Array<{ id: string; filters: SavedSearchFilters }>; limit: number };
    expect(listed.limit).toBe(MAX_SAVED_SEARCHES);
    expect(listed.saved_searches).toEqual([expect.objectContaining({ id: search.id, filters: { category: 'Blog', max_price: 5000, listing_type: 'all' } })]);
    expect(((await call(RPC.listings.savedSearchList, {}, bob)) as { saved_searches: unknown[] }).saved_searches).toEqual([]);

    expect((await failure(call(RPC.listings.savedSearchUpdate, { id: search.id, change: { alerts: false } }, bob))).status).toBe(404);
    expect((await failure(call(RPC.listings.savedSearchDelete, { id: search.id }, bob))).status).toBe(404);
    expect((await failure(call(RPC.listings.savedSearchList, {}, null))).status).toBe(401);
    const [row] = await ds.query('SELECT alerts FROM saved_searches WHERE id = $1', [search.id]);
    expect(row.alerts).toBe(true);

    expect(await call(RPC.listings.savedSearchUpdate, { id: search.id, change: { name: 'Blogs under $5k', alerts: false } }, ann)).toMatchObject({ name: 'Blogs under $5k', alerts: false });
    expect(await call(RPC.listings.savedSearchDelete, { id: search.id }, ann)).toEqual({ message: 'Saved search deleted' });
    expect((await failure(call(RPC.listings.savedSearchDelete, { id: search.id }, ann))).status).toBe(404);
  });

  it('refuses bad filters, the same filters twice, and a 21st search even when saves race', async () => {
    const ann = await testCaller(under.svc.env, { role: 'regular' });
    expect((await failure(save(ann, { min_price: 5000, max_price: 100 }))).status).toBe(422);
    expect((await failure(save(ann, { category: 'Nope' as never }))).status).toBe(422);
    expect((await failure(call(RPC.listings.savedSearchCreate, { name: '  ', filters: {} }, ann))).status).toBe(422);
    // Text of only common words would match nothing, ever.
    const empty = await failure(save(ann, { search: 'the and of' }));
    expect([empty.status, empty.detail]).toEqual([400, expect.stringContaining('only common words')]);
    await save(ann, { search: 'Recipe  blog' }, 'Recipes');
    const twice = await failure(save(ann, { search: 'recipe blog' }));
    expect([twice.status, twice.detail]).toEqual([409, 'You already saved these filters as "Recipes"']);
    // Blank text is no search: the same filters as none at all.
    await save(ann, {}, 'Everything');
    expect((await failure(save(ann, { search: '   ' }))).detail).toBe('You already saved these filters as "Everything"');

    // 17 more at once, then 5 racing for what is left: exactly 20 in all.
    await Promise.all(Array.from({ length: 17 }, (_, i) => save(ann, { min_price: i + 1 })));
    const race = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => save(ann, { min_revenue: i + 1 })));
    expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = race.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason as AppError;
    expect(refused.status).toBe(409);
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM saved_searches WHERE user_id = $1', [ann.user_id]);
    expect(n).toBe(MAX_SAVED_SEARCHES);
  });

  it('matches a listing that goes live once per search, as browse would, never the seller\'s own, and announces only alerting ones', async () => {
    const [buyer, quiet, seller] = [await testCaller(under.svc.env, { role: 'regular' }), await testCaller(under.svc.env, { role: 'regular' }), await testCaller(under.svc.env, { role: 'regular' })];
    const tag = randomUUID().slice(0, 8);
    const wanted = await save(buyer, { search: `gardening ${tag}`, category: 'Blog', listing_type: 'auction', max_price: 6000, min_revenue: 500 });
    const tooCheap = await save(buyer, { search: `gardening ${tag}`, max_price: 100 });
    const silent = await save(quiet, { search: `gardening ${tag}` }, 'Gardening, no email', false);
    const own = await save(seller, { search: `gardening ${tag}` });

    const listing = await under.live(seller.user_id, buildListing({ title: `Gardening ${tag} blog`, category: 'Blog', starting_price: 5000, monthly_revenue: 800 }));
    const eventId = await approved(listing);
    await eventually(async () => expect(await matchedEvents(wanted.id)).toHaveLength(1));
    const [event] = await matchedEvents(wanted.id);
    expect(event).toMatchObject({ listing_id: listing.id, user_id: buyer.user_id });
    expect(await matchRows(silent.id)).toBe(1);
    expect(await matchedEvents(silent.id)).toEqual([]);
    expect(await matchRows(tooCheap.id)).toBe(0);
    expect(await matchRows(own.id)).toBe(0);

    // The same event delivered again, and a later listing.approved for it, announce nothing more.
    await approved(listing, eventId);
    await approved(listing);
    const marker = await under.live(seller.user_id, buildListing({ title: `Gardening ${tag} shop`, category: 'Blog', starting_price: 5000, monthly_revenue: 800 }));
    await approved(marker);
    await eventually(async () => expect(await matchedEvents(wanted.id)).toHaveLength(2));
    expect((await matchedEvents(wanted.id)).map((e) => e.listing_id)).toEqual([listing.id, marker.id]);
    const listed = (await call(RPC.listings.savedSearchList, {}, buyer)) as { saved_searches: Array<{ id: string; matches: number }> };
    expect(listed.saved_searches.find((s) => s.id === wanted.id)?.matches).toBe(2);

    // The signed link turns that search's alerts off, and only that one's; twice answers the same.
    const stopped = { message: `You will get no more alerts for "${wanted.name}"` };
    expect(await call(RPC.listings.unsubscribe, { token: event.unsubscribe_token }, null)).toEqual(stopped);
    expect(await call(RPC.listings.unsubscribe, { token: event.unsubscribe_token }, null)).toEqual(stopped);
    const alerts = await ds.query('SELECT id, alerts FROM saved_searches WHERE id = ANY($1) ORDER BY id', [[wanted.id, tooCheap.id]]);
    expect(Object.fromEntries(alerts.map((r: { id: string; alerts: boolean }) => [r.id, r.alerts]))).toEqual({ [wanted.id]: false, [tooCheap.id]: true });
  });

  it('announces a listing that matches more searches than one event carries in several events, each search once', async () => {
    const seller = await testCaller(under.svc.env, { role: 'regular' });
    const tag = randomUUID().slice(0, 8);
    const wanted = SAVED_SEARCH_MATCHES_PER_EVENT + 5;
    const buyers = await Promise.all(Array.from({ length: Math.ceil(wanted / MAX_SAVED_SEARCHES) }, () => testCaller(under.svc.env, { role: 'regular' })));
    const saved: Array<{ id: string }> = [];
    for (let i = 0; i < wanted; i += 1) saved.push(await save(buyers[i % buyers.length], { search: `orchids ${tag}`, min_price: i }));
    const listing = await under.live(seller.user_id, buildListing({ title: `Orchids ${tag} forum`, starting_price: 50_000 }));
    await approved(listing);
    // Other tests' searches with broad filters match it too: ours must all be named, each search once, in full events.
    const named = async (): Promise<string[]> =>
      (
        await ds.query(
          `SELECT m->>'search_id' AS id FROM outbox o CROSS JOIN jsonb_array_elements(o.payload->'matches') AS m
           WHERE o.name = 'saved_search.matched' AND o.payload->>'listing_id' = $1`,
          [listing.id],
        )
      ).map((r: { id: string }) => r.id);
    await eventually(async () => expect(await named()).toEqual(expect.arrayContaining(saved.map((s) => s.id))));
    const all = await named();
    expect(new Set(all).size).toBe(all.length);
    const sizes: Array<{ n: number }> = await ds.query(
      `SELECT jsonb_array_length(payload->'matches') AS n FROM outbox WHERE name = 'saved_search.matched' AND payload->>'listing_id' = $1 ORDER BY seq`,
      [listing.id],
    );
    expect(sizes.length).toBe(Math.ceil(all.length / SAVED_SEARCH_MATCHES_PER_EVENT));
    expect(sizes.slice(0, -1).every((e) => e.n === SAVED_SEARCH_MATCHES_PER_EVENT)).toBe(true);
  });

  it("still honours a search's link after the key that signed it is retired: the token stored with the search vouches", async () => {
    const ann = await testCaller(under.svc.env, { role: 'regular' });
    const search = await save(ann, { category: 'Newsletter' });
    // As if signed by a key no longer listed: another key set's signature, stored with the search when it was saved.
    const retired = new UnsubscribeLinks(busIdentity('listings-service', { BUS_SIGNING_KEY: foreign.signingKeys['listings-service'], BUS_PUBLIC_KEYS: foreign.publicKeys }, 'test'));
    const oldToken = retired.tokenFor({ kind: 'saved_search', id: search.id });
    await ds.query('UPDATE saved_searches SET unsubscribe_token = $2 WHERE id = $1', [search.id, oldToken]);
    const other = await save(ann, { category: 'SaaS', listing_type: 'fixed' });
    const unstored = retired.tokenFor({ kind: 'saved_search', id: other.id });
    expect((await failure(call(RPC.listings.unsubscribe, { token: unstored }, null))).status).toBe(400);
    expect(await call(RPC.listings.unsubscribe, { token: oldToken }, null)).toEqual({ message: `You will get no more alerts for "${search.name}"` });
    const rows = await ds.query('SELECT id, alerts FROM saved_searches WHERE id = ANY($1)', [[search.id, other.id]]);
    expect(Object.fromEntries(rows.map((r: { id: string; alerts: boolean }) => [r.id, r.alerts]))).toEqual({ [search.id]: false, [other.id]: true });
  });

  it('refuses an unsubscribe link it did not sign, or signed for another search', async () => {
    const ann = await testCaller(under.svc.env, { role: 'regular' });
    const search = await save(ann, { category: 'SaaS' });
    const other = await save(ann, { category: 'Blog' });
    const listing = await under.live(randomUUID(), buildListing({ category: 'SaaS' }));
    await approved(listing);
    await eventually(async () => expect(await matchedEvents(search.id)).toHaveLength(1));
    const [{ unsubscribe_token: token }] = await matchedEvents(search.id);
    const signature = token.slice(token.indexOf('.') + 1);
    const forged = [`s-${other.id}.${signature}`, `s-${search.id}.${'A'.repeat(86)}`, `x-${search.id}.${signature}`];
    for (const bad of forged) expect((await failure(call(RPC.listings.unsubscribe, { token: bad }, null))).status).toBe(400);
    const alerts = await ds.query('SELECT alerts FROM saved_searches WHERE id = ANY($1)', [[search.id, other.id]]);
    expect(alerts.map((r: { alerts: boolean }) => r.alerts)).toEqual([true, true]);
  });
});
