import { DataSource } from 'typeorm';
import { connect } from 'nats';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Json, type Stack } from '../support/start-stack';
import { listingForm, solidPng } from '../support/images';
import { LISTING_FIELDS as FIELDS } from '../support/listing-fields';

const ADMIN = { email: 'listings-admin@example.com', password: 'listings-admin-pass-1' };

/** Watchlists, admins' listing acts, auto-approval, the gateways' browse cache and a deleted seller's listings. */
describe('listings around the listing itself, through the gateway', () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const listingsDb = () => stack.service('listings').get(DataSource);
  const signUp = (overrides = {}) => registerUser(stack.url, overrides);
  const createListing = async (token: string, fields: Record<string, string | number | string[] | undefined> = FIELDS) => {
    const response = await fetch(api('/listings'), { method: 'POST', headers: bearer(token), body: listingForm(fields, [{ name: 'home.png', data: solidPng() }]) });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const approve = (id: string) => call('PATCH', api(`/admin/listings/${id}`), { status: 'active' }, bearer(adminToken));

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'notifications', 'admin', 'listings', 'bidding'],
      gateways: 2,
      // Long enough that only the listing events can explain a fresh page on the second gateway.
      env: { BROWSE_CACHE_MS: '60000', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'https://market.example', RATE_LIMIT_SCALE: '100' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('keeps a watchlist with the texts of SPEC §8', async () => {
    const seller = await signUp();
    const watcher = await signUp();
    const { body: listing } = await createListing(seller.token);
    expect((await post(api('/user/watchlist'), { listing_id: listing.id }, bearer(watcher.token))).status).toBe(404);
    // Not even an admin watches a listing under review: its entry could not be shown.
    expect((await post(api('/user/watchlist'), { listing_id: listing.id }, bearer(adminToken))).status).toBe(404);
    await approve(listing.id);

    const added = await post(api('/user/watchlist'), { listing_id: listing.id }, bearer(watcher.token));
    expect(added.status).toBe(201);
    const again = await post(api('/user/watchlist'), { listing_id: listing.id }, bearer(watcher.token));
    expect(again).toMatchObject({ status: 400, body: { detail: 'This listing is already in your watchlist' } });
    expect((await post(api('/user/watchlist'), { listing_id: listing.id }, bearer(seller.token))).status).toBe(400);
    expect((await post(api('/user/watchlist'), { listing_id: 'nope' }, bearer(watcher.token))).status).toBe(422);

    const list = await get(api('/user/watchlist'), bearer(watcher.token));
    expect(list.body.watchlist).toHaveLength(1);
    expect(list.body.watchlist[0]).toMatchObject({ listing_id: listing.id, listing: { id: listing.id, title: FIELDS.title } });
    expect(list.body.watchlist[0].listing).not.toHaveProperty('reserve_price');

    expect((await call('DELETE', api(`/user/watchlist/${listing.id}`), undefined, bearer(watcher.token))).status).toBe(200);
    expect((await call('DELETE', api(`/user/watchlist/${listing.id}`), undefined, bearer(watcher.token))).status).toBe(404);
    expect((await get(api('/user/watchlist'), bearer(watcher.token))).body.watchlist).toEqual([]);
  });

  it('lets only admins list every listing, feature one and see it in the featured browse', async () => {
    const seller = await signUp();
    const { body: listing } = await createListing(seller.token);
    expect((await get(api('/admin/listings?limit=1000'), bearer(seller.token))).status).toBe(403);
    const all = await get(api('/admin/listings?limit=1000'), bearer(adminToken));
    const row = all.body.listings.find((l: { id: string }) => l.id === listing.id);
    expect(row).toMatchObject({ status: 'pending', seller_username: seller.username, reserve_price: 15000 });

    await approve(listing.id);
    const featured = await call('PATCH', api(`/admin/listings/${listing.id}`), { featured: true }, bearer(adminToken));
    expect(featured.body.featured).toBe(true);
    const home = await get(api('/listings?featured=true&limit=6'));
    expect(home.body.listings.map((l: { id: string }) => l.id)).toContain(listing.id);
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { featured: true, status: 'sold' }, bearer(adminToken))).status).toBe(422);

    const sold = await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'sold' }, bearer(adminToken));
    expect(sold.body.status).toBe('sold');
    expect((await call('DELETE', api(`/listings/${listing.id}`), undefined, bearer(seller.token))).body).toMatchObject({ detail: 'A sold listing cannot be deleted' });
    expect((await call('DELETE', api(`/admin/listings/${listing.id}`), undefined, bearer(adminToken))).status).toBe(200);
  });

  it('publishes at once when auto_approve is on', async () => {
    const settings = (await get(api('/admin/settings'), bearer(adminToken))).body;
    const { smtp_password_set: _set, ...rest } = { ...settings, smtp_password: '' };
    expect((await post(api('/admin/settings'), { ...rest, auto_approve: true }, bearer(adminToken))).status).toBe(200);
    try {
      const seller = await signUp();
      await eventually(async () => {
        const created = await createListing(seller.token, { ...FIELDS, title: 'Instant approval test site' });
        expect(created.body.status).toBe('active');
        expect(created.body.expires_at).not.toBeNull();
      }, 20_000);
    } finally {
      await post(api('/admin/settings'), { ...rest, auto_approve: false }, bearer(adminToken));
    }
  });

  it('serves repeated browse pages from each gateway\'s cache, cleared by listing events from any gateway', async () => {
    const seller = await signUp();
    const { body: listing } = await createListing(seller.token, { ...FIELDS, title: 'Kombucha brewing guide site' });
    // The approval's listing.approved clears every gateway's pages when it arrives: wait for it before priming a page,
    // or it could land between the two reads below and make the cache look empty.
    const nc = await connect({ servers: stack.env.NATS_URL });
    const events = nc.subscribe(`${stack.env.EVENTS_PREFIX}.listing.approved`);
    await nc.flush();
    await approve(listing.id);
    for await (const message of events) if ((JSON.parse(message.string()) as Json).payload.listing_id === listing.id) break;
    await nc.close();
    const other = (path: string) => `${stack.urls[1]}/api${path}`;
    // A row changed behind the services' back is not seen: the page comes from the cache. The approval also writes
    // listing.updated, which may reach this gateway after the page was primed and clear it once: then the look is
    // primed and made again (it cannot be cleared again, nothing else is written).
    const setTitle = (title: string) => listingsDb().query('UPDATE listings SET title = $2 WHERE id = $1', [listing.id, title]);
    await eventually(async () => {
      await setTitle('Kombucha brewing guide site');
      expect((await get(other('/listings?search=kombucha'))).body.total).toBe(1);
      await setTitle('Kombucha guide (renamed quietly)');
      expect((await get(other('/listings?search=kombucha'))).body.listings[0].title).toBe('Kombucha brewing guide site');
    }, 10_000);

    // A pause through the first gateway publishes listing.updated; the second gateway drops its pages.
    expect((await call('PATCH', api(`/listings/${listing.id}`), { status: 'paused' }, bearer(seller.token))).status).toBe(200);
    await eventually(async () => {
      expect((await get(other('/listings?search=kombucha'))).body.total).toBe(0);
    }, 5_000);
  });

  it('withdraws the listings of a deleted account', async () => {
    const seller = await signUp();
    const { body: listing } = await createListing(seller.token);
    await approve(listing.id);
    expect((await call('DELETE', api(`/admin/users/${seller.id}`), undefined, bearer(adminToken))).status).toBe(200);
    await eventually(async () => {
      expect((await get(api(`/listings/${listing.id}`))).status).toBe(404);
    }, 15_000);
  });
});
