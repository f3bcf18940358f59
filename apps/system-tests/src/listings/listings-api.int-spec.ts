import { readdirSync } from 'node:fs';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, signUp as registerUser, startStack, postCounted, type Json, type Stack } from '../support/start-stack';
import { listingForm, solidPng } from '../support/images';
import { LISTING_FIELDS as FIELDS } from '../support/listing-fields';

const ADMIN = { email: 'lister-admin@example.com', password: 'lister-admin-pass-1' };

describe('listings through the gateway', () => {
  let stack: Stack;
  let uploads: string;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const listingsDb = () => stack.service('listings').get(DataSource);
  const stored = () => readdirSync(uploads).filter((f) => !f.startsWith('.'));

  const signUp = (overrides = {}) => registerUser(stack.url, overrides);

  const createListing = async (token: string, fields: Record<string, string | number | string[] | undefined> = FIELDS, files = [{ name: 'home.png', data: solidPng() }]) => {
    const response = await fetch(api('/listings'), { method: 'POST', headers: bearer(token), body: listingForm(fields, files) });
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
    uploads = stack.env.UPLOADS_DIR;
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates a pending listing with its screenshot, hidden from everyone but its seller and admins until approved', async () => {
    const seller = await signUp();
    const stranger = await signUp();
    const created = await createListing(seller.token);
    expect(created.status).toBe(201);
    const listing = created.body;
    expect(listing).toMatchObject({ status: 'pending', seller_id: seller.id, reserve_price: 15000, has_reserve: true, reserve_met: false });
    expect(listing.monetization_methods).toEqual(['AdSense', 'Affiliate Marketing']);
    expect(listing.screenshots).toHaveLength(1);

    const image = await fetch(`${stack.url}${listing.screenshots[0]}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    // Stored re-encoded without metadata (ADR 0029): the same pixels, not the same bytes.
    const [served, sent] = await Promise.all([sharp(Buffer.from(await image.arrayBuffer())).raw().toBuffer(), sharp(solidPng()).raw().toBuffer()]);
    expect(served.equals(sent)).toBe(true);

    expect((await get(api(`/listings/${listing.id}`))).status).toBe(404);
    expect((await get(api(`/listings/${listing.id}`), bearer(stranger.token))).body).toMatchObject({ detail: 'Listing not found' });
    expect((await get(api(`/listings/${listing.id}`), bearer(seller.token))).status).toBe(200);
    expect((await get(api(`/listings/${listing.id}`), bearer(adminToken))).status).toBe(200);
    const mine = await get(api('/user/listings'), bearer(seller.token));
    expect(mine.body.listings.map((l: { id: string }) => l.id)).toEqual([listing.id]);
    const browse = await get(api(`/listings?search=${encodeURIComponent('plant based')}`));
    expect(browse.body.listings.map((l: { id: string }) => l.id)).not.toContain(listing.id);
  });

  it('approval makes it live for the duration, emails the seller, and the public sees has_reserve but never the reserve', async () => {
    const seller = await signUp();
    const { body: listing } = await createListing(seller.token, { ...FIELDS, description: `${FIELDS.description} Zucchini special.` });
    const before = Date.now();
    const approved = await approve(listing.id);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('active');
    const expires = new Date(approved.body.expires_at).getTime();
    expect(expires - before).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(expires - before).toBeLessThan(7 * 24 * 3600_000 + 60_000);

    const publicView = await get(api(`/listings/${listing.id}`));
    expect(publicView.status).toBe(200);
    expect(publicView.body).toMatchObject({ has_reserve: true, reserve_met: false });
    expect(publicView.body).not.toHaveProperty('reserve_price');
    expect(JSON.stringify(publicView.body)).not.toContain('15000');
    expect(publicView.body.seller).toMatchObject({ id: seller.id, username: seller.username, verified: false, total_transactions: 0, rating: null });

    const found = await get(api('/listings?search=zucchini'));
    expect(found.body.listings.map((l: { id: string }) => l.id)).toEqual([listing.id]);
    expect(found.body.listings[0]).not.toHaveProperty('reserve_price');
    // Browse answers cards (ADR 0082): what the card shows, the description's start as its excerpt; the whole listing
    // is the listing's own page.
    expect(found.body.listings[0]).toMatchObject({
      id: listing.id,
      title: publicView.body.title,
      excerpt: publicView.body.description.replace(/\s+/g, ' ').trim().slice(0, 240),
      screenshot: publicView.body.screenshots[0] ?? null,
      has_reserve: true,
      reserve_met: false,
      current_bid: publicView.body.current_bid,
      expires_at: publicView.body.expires_at,
    });
    expect(found.body.listings[0]).not.toHaveProperty('description');
    expect(found.body.listings[0]).not.toHaveProperty('seller_id');

    // The bidding service learns the sale terms from listing.approved (reserve included: it decides the close).
    await eventually(async () => {
      const [auction] = await stack.service('bidding').get(DataSource).query(
        'SELECT status, starting_price::int AS starting_price, reserve_price::int AS reserve_price FROM auctions WHERE listing_id = $1',
        [listing.id],
      );
      expect(auction).toEqual({ status: 'active', starting_price: 9000, reserve_price: 15000 });
    }, 15_000);

    await eventually(async () => {
      const { body } = await get(api('/admin/emails'), bearer(adminToken));
      const email = body.emails.find((e: { to_address: string; kind: string }) => e.to_address === seller.email && e.kind === 'listing_approved');
      expect(email).toBeDefined();
      expect(email.text_body).toContain(`https://market.example/listing/${listing.id}`);
    }, 15_000);
  });

  it('only the seller or an admin edits, pauses or deletes; pausing hides the listing from browse', async () => {
    const seller = await signUp();
    const stranger = await signUp();
    const { body: listing } = await createListing(seller.token, { ...FIELDS, title: 'Quinoa quarterly newsletter for sale' });
    await approve(listing.id);

    expect((await call('PATCH', api(`/listings/${listing.id}`), { status: 'paused' }, bearer(stranger.token))).status).toBe(403);
    expect((await call('DELETE', api(`/listings/${listing.id}`), undefined, bearer(stranger.token))).status).toBe(403);
    const edit = await fetch(api(`/listings/${listing.id}`), { method: 'PATCH', headers: bearer(stranger.token), body: listingForm({ ...FIELDS, title: 'Stolen title here' }) });
    expect(edit.status).toBe(403);
    expect((await get(api(`/listings/${listing.id}`))).body.title).toBe('Quinoa quarterly newsletter for sale');

    const paused = await call('PATCH', api(`/listings/${listing.id}`), { status: 'paused' }, bearer(seller.token));
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    expect((await get(api('/listings?search=quinoa'))).body.total).toBe(0);
    expect((await get(api(`/listings/${listing.id}`))).status).toBe(404);

    const refused = await call('PATCH', api(`/listings/${listing.id}`), { status: 'sold' }, bearer(seller.token));
    expect(refused.status).toBe(422);
    const active = await call('PATCH', api(`/listings/${listing.id}`), { status: 'active' }, bearer(seller.token));
    expect(active.body.status).toBe('active');
    expect((await get(api('/listings?search=quinoa'))).body.total).toBe(1);

    const deleted = await call('DELETE', api(`/listings/${listing.id}`), undefined, bearer(seller.token));
    expect(deleted.status).toBe(200);
    expect((await get(api(`/listings/${listing.id}`), bearer(seller.token))).status).toBe(404);
    expect((await fetch(`${stack.url}${listing.screenshots[0]}`)).status).toBe(404);
  });

  it('a listing sent back to review stays in review whatever its seller does, and an ended one is not revived by its seller', async () => {
    const seller = await signUp();
    const setStatus = (status: string) => call('PATCH', api(`/listings/${listing.id}`), { status }, bearer(seller.token));
    const { body: listing } = await createListing(seller.token);
    await approve(listing.id);
    const pending = await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'pending' }, bearer(adminToken));
    expect(pending.body).toMatchObject({ status: 'pending', approved_at: null, expires_at: null });
    expect((await setStatus('draft')).body.status).toBe('draft');
    expect((await setStatus('active')).body.status).toBe('pending');
    expect((await get(api(`/listings/${listing.id}`))).status).toBe(404);

    await approve(listing.id);
    expect((await setStatus('paused')).body.status).toBe('paused');
    await listingsDb().query(`UPDATE listings SET expires_at = now() - interval '1 hour' WHERE id = $1`, [listing.id]);
    expect(await setStatus('active')).toMatchObject({ status: 400, body: { detail: 'This listing has ended and cannot be activated again' } });
    const revived = await approve(listing.id);
    expect(revived.body.status).toBe('active');
    expect(new Date(revived.body.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('edits keep chosen screenshots, add new ones, delete dropped ones from storage, and refuse more than five', async () => {
    const seller = await signUp();
    const { body: listing } = await createListing(seller.token, FIELDS, [
      { name: 'a.png', data: solidPng(10, 10, [200, 0, 0]) },
      { name: 'b.png', data: solidPng(10, 10, [0, 200, 0]) },
    ]);
    const [keep, drop] = listing.screenshots as string[];
    const response = await fetch(api(`/listings/${listing.id}`), {
      method: 'PATCH',
      headers: bearer(seller.token),
      body: listingForm({ ...FIELDS, title: 'Vegan recipes blog, now with video', existing_screenshots: [keep], monetization_methods: ['AdSense', 'Course Sales'] }, [
        { name: 'c.png', data: solidPng(12, 12, [0, 0, 200]) },
      ]),
    });
    expect(response.status).toBe(200);
    const edited = (await response.json()) as Json;
    expect(edited.title).toBe('Vegan recipes blog, now with video');
    expect(edited.monetization_methods).toEqual(['AdSense', 'Course Sales']);
    expect(edited.screenshots).toHaveLength(2);
    expect(edited.screenshots[0]).toBe(keep);
    expect((await fetch(`${stack.url}${drop}`)).status).toBe(404);
    expect((await fetch(`${stack.url}${edited.screenshots[1]}`)).status).toBe(200);

    const files = stored().length;
    const tooMany = await fetch(api(`/listings/${listing.id}`), {
      method: 'PATCH',
      headers: bearer(seller.token),
      body: listingForm({ ...FIELDS, existing_screenshots: edited.screenshots }, [1, 2, 3, 4].map((n) => ({ name: `${n}.png`, data: solidPng(n + 4, 5) }))),
    });
    expect(tooMany.status).toBe(422);
    expect(stored().length).toBe(files);

    const foreign = await fetch(api(`/listings/${listing.id}`), {
      method: 'PATCH',
      headers: bearer(seller.token),
      body: listingForm({ ...FIELDS, existing_screenshots: ['/api/uploads/00000000-0000-4000-8000-000000000000.png'] }),
    });
    expect(foreign.status).toBe(422);
  });

  it('keeps what an edit leaves out (monthly expenses, reserve, texts), sets what it sends, 0 included, and clears what it sends empty', async () => {
    const seller = await signUp();
    const { body: listing } = await createListing(seller.token, { ...FIELDS, buy_now_price: 30000, key_metrics: 'Open rate 48%' });
    const edit = async (fields: Record<string, string | number | string[] | undefined>) => {
      const response = await fetch(api(`/listings/${listing.id}`), { method: 'PATCH', headers: bearer(seller.token), body: listingForm(fields) });
      return { status: response.status, body: (await response.json()) as Json };
    };
    // SPEC §5's edit form: the required fields only, and a new title.
    const required = {
      title: 'Vegan recipes blog, edited',
      description: FIELDS.description,
      category: FIELDS.category,
      website_url: FIELDS.website_url,
      monthly_revenue: FIELDS.monthly_revenue,
      annual_revenue: FIELDS.annual_revenue,
      monthly_traffic: FIELDS.monthly_traffic,
      profit_margin: FIELDS.profit_margin,
      business_age_months: FIELDS.business_age_months,
      starting_price: FIELDS.starting_price,
    };
    const kept = await edit(required);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      title: 'Vegan recipes blog, edited',
      monthly_expenses: 300,
      reserve_price: 15000,
      buy_now_price: 30000,
      key_metrics: 'Open rate 48%',
      monetization_methods: ['AdSense', 'Affiliate Marketing'],
      listing_type: 'auction',
      duration_days: 7,
    });
    expect(kept.body.screenshots).toEqual(listing.screenshots);
    const [row] = await listingsDb().query('SELECT monthly_expenses::int AS monthly_expenses FROM listings WHERE id = $1', [listing.id]);
    expect(row.monthly_expenses).toBe(300);

    const zero = await edit({ ...required, monthly_expenses: 0 });
    expect(zero.body.monthly_expenses).toBe(0);
    const cleared = await edit({ ...required, reserve_price: '', key_metrics: '', existing_screenshots: '' });
    expect(cleared.body).toMatchObject({ monthly_expenses: 0, reserve_price: null, has_reserve: false, key_metrics: null, buy_now_price: 30000, screenshots: [] });
    expect((await fetch(`${stack.url}${listing.screenshots[0]}`)).status).toBe(404);

    // The pricing rules hold for the listing the edit makes, stored prices included.
    const fixed = await edit({ ...required, listing_type: 'fixed' });
    expect(fixed.status).toBe(422);
    expect(fixed.body.detail).toEqual([{ loc: ['body', 'buy_now_price'], msg: 'Only auctions have a buy now price', type: 'custom' }]);
    expect((await edit({ ...required, listing_type: 'fixed', buy_now_price: '' })).body).toMatchObject({ listing_type: 'fixed', buy_now_price: null });
  });

  it('refuses bad input with a detail list and stores nothing', async () => {
    const seller = await signUp();
    const files = stored().length;
    const invalid = await createListing(seller.token, { ...FIELDS, title: 'abc', starting_price: '99.5' });
    expect(invalid.status).toBe(422);
    const locations = invalid.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locations).toEqual(expect.arrayContaining(['body.title', 'body.starting_price']));
    const disguised = await createListing(seller.token, FIELDS, [{ name: 'logo.png', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') }]);
    expect(disguised.status).toBeGreaterThanOrEqual(400);
    expect(disguised.status).toBeLessThan(500);
    expect(stored().length).toBe(files);
    expect((await listingsDb().query('SELECT count(*)::int AS n FROM listings WHERE seller_id = $1', [seller.id]))[0].n).toBe(0);
    const guest = await fetch(api('/listings'), { method: 'POST', body: listingForm(FIELDS) });
    expect(guest.status).toBe(401);
    const badQuery = await get(api('/listings?category=Crypto&min_price=10.5'));
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['query.category', 'query.min_price']);
    expect((await get(api('/listings/not-a-uuid'))).status).toBe(422);
    expect((await get(api('/listings?search=a%00b'))).status).toBe(422);
    const nul = await createListing(seller.token, { ...FIELDS, title: 'Hello\u0000World site' });
    expect(nul.status).toBe(422);
    expect(nul.body.detail[0].loc).toEqual(['body', 'title']);
  });
});
