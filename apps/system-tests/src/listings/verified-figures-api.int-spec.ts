import { randomBytes } from 'node:crypto';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Json, type Stack } from '../support/start-stack';
import { listingForm, solidPng } from '../support/images';
import { LISTING_FIELDS } from '../support/listing-fields';

const ADMIN = { email: 'figures-admin@example.com', password: 'figures-admin-pass-1' };

// Claims the sandbox's figures below back: $2,500 a month of revenue, 12,000 sessions.
const FIELDS = { ...LISTING_FIELDS, title: 'Candle shop with verified figures', monthly_revenue: 2500, annual_revenue: 30000, monthly_traffic: 12000 };

/**
 * Verified figures through the gateway (D24, ADR 0084), with listings-service's sandbox: the official SDKs read its
 * Stripe and Google stand-ins, as npm start's do.
 */
describe('verified revenue and traffic through the gateway (ADR 0084)', () => {
  let stack: Stack;
  let adminToken: string;
  let counted = 0;
  const api = (path: string) => `${stack.url}/api${path}`;
  const listingOf = async (id: string) => (await get(api(`/listings/${id}`))).body as Json;
  const connectStripe = (id: string, token: string, key: string) => {
    counted++;
    return post(api(`/listings/${id}/verifications/stripe`), { key }, bearer(token));
  };
  const createLive = async (token: string) => {
    const website = `https://candles-${randomBytes(4).toString('hex')}.example.com`;
    const response = await fetch(api('/listings'), { method: 'POST', headers: bearer(token), body: listingForm({ ...FIELDS, website_url: website }, [{ name: 'home.png', data: solidPng() }]) });
    if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
    const listing = (await response.json()) as Json;
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(200);
    return listing;
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, BROWSE_CACHE_MS: '0', VERIFICATION_SANDBOX: 'on' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('connects Stripe with a sandbox key: the figures land, the card and the filter follow, and only the seller may', async () => {
    const [seller, other] = [await registerUser(stack.url), await registerUser(stack.url)];
    const listing = await createLive(seller.token);
    // The sandbox's convention: the key's first digits are the account's monthly revenue in cents ($2,500, as claimed).
    const key = `rk_test_sys250000x${randomBytes(8).toString('hex')}`;
    expect((await connectStripe(listing.id, other.token, key)).status).toBe(403);
    expect((await get(api(`/listings/${listing.id}/verifications`), bearer(other.token))).status).toBe(404);

    const connected = await connectStripe(listing.id, seller.token, key);
    expect(connected.status).toBe(200);
    expect(JSON.stringify(connected.body)).not.toContain(key);
    expect(connected.body.sources[0]).toMatchObject({ source: 'stripe', available: true, test_mode: true, connection: { state: 'active', verified_at: null } });

    await eventually(async () => expect((await listingOf(listing.id)).verification?.revenue?.state).toBe('current'));
    const shown = await listingOf(listing.id);
    expect(shown).toMatchObject({ revenue_verified: true, verification: { revenue: { monthly_average_cents: 250_000, claimed_cents: 250_000, inflated: false, test_mode: true } } });
    const browse = (await get(api('/listings?verified_revenue=true&limit=100'))).body;
    expect(browse.listings.map((card: Json) => card.id)).toContain(listing.id);
    expect(browse.facets.verified.revenue).toBe(browse.total);
    const admin = (await get(api('/admin/listings'), bearer(adminToken))).body.listings.find((l: Json) => l.id === listing.id);
    expect(admin.verification.revenue).toMatchObject({ inflated: false, account_label: 'SANDBOX SITE' });
  });

  it("connects GA4 through the consent: the state is the seller's, and the figures land", async () => {
    const seller = await registerUser(stack.url);
    const listing = await createLive(seller.token);
    counted++;
    const started = await post(api(`/listings/${listing.id}/verifications/ga4`), { property_id: '12000' }, bearer(seller.token));
    expect(started.status).toBe(200);
    const consent = new URL(started.body.authorize_url);
    expect(consent.searchParams.get('redirect_uri')).toMatch(/\/verify\/ga4$/);
    expect(await (await fetch(consent)).text()).toContain('TEST MODE');
    // The stand-in's Allow, as the seller's browser sends it.
    const decide = new URL('/o/oauth2/v2/auth/decide', consent.origin);
    for (const scope of (consent.searchParams.get('scope') ?? '').split(' ')) decide.searchParams.append('scope', scope);
    for (const name of ['redirect_uri', 'state', 'prompt']) decide.searchParams.set(name, consent.searchParams.get(name) ?? '');
    decide.searchParams.set('offline', '1');
    decide.searchParams.set('decision', 'allow');
    const back = new URL((await fetch(decide, { redirect: 'manual' })).headers.get('location') ?? '');
    const code = back.searchParams.get('code');
    const state = back.searchParams.get('state');

    // Someone else finishing the seller's consent changes nothing, and leaves the state to its owner.
    const stranger = await registerUser(stack.url);
    counted++;
    expect((await post(api('/verifications/ga4/callback'), { code, state }, bearer(stranger.token))).status).toBe(400);
    counted++;
    const finished = await post(api('/verifications/ga4/callback'), { code, state }, bearer(seller.token));
    expect(finished.status).toBe(200);
    expect(finished.body.sources[1]).toMatchObject({ source: 'ga4', connection: { state: 'active', property_id: '12000' } });
    await eventually(async () => expect((await listingOf(listing.id)).verification?.traffic?.state).toBe('current'));
    expect(await listingOf(listing.id)).toMatchObject({ traffic_verified: true, verification: { traffic: { monthly_average_sessions: 12_000, monthly_average_users: 7_200, inflated: false } } });
  });

  it('paces connects per address: 30 an hour, then 429 with the quota named', async () => {
    const seller = await registerUser(stack.url);
    const listing = await createLive(seller.token);
    // A live key the sandbox does not know: Stripe's refusal, a 400, and still an attempt that counts.
    const unknown = () => connectStripe(listing.id, seller.token, `rk_live_${randomBytes(12).toString('hex')}`);
    while (counted < 30) expect((await unknown()).status).toBe(400);
    const limited = await unknown();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toBe('"verified-figures-address";q=30;w=3600');
    expect(limited.body).toMatchObject({ detail: expect.any(String) });
  });
});
