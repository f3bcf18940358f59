import { randomUUID } from 'node:crypto';
import { startLocalDnsServer, startLocalProofSite, type LocalDnsServer, type LocalProofSite } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Json, type Stack } from '../support/start-stack';
import { listingForm, solidPng } from '../support/images';

const ADMIN = { email: 'ownership-admin@example.com', password: 'ownership-admin-pass-1' };
const TIMEOUT_MS = 1_000;

const FIELDS = {
  title: 'Handmade soap shop with repeat buyers',
  description: 'An online shop selling handmade soap with a mailing list of four thousand repeat customers.',
  category: 'E-commerce',
  monthly_revenue: 2500,
  annual_revenue: 30000,
  monthly_traffic: 12000,
  monthly_expenses: 500,
  profit_margin: 80,
  business_age_months: 40,
  monetization_methods: 'E-commerce',
  listing_type: 'auction',
  starting_price: 20000,
  duration_days: 7,
};

describe('listing ownership proof through the gateway (ADR 0040)', () => {
  let stack: Stack;
  let dns: LocalDnsServer;
  let site: LocalProofSite;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const domain = (label: string) => `${label}-${randomUUID().slice(0, 8)}.example.test`;

  const createListing = async (token: string, websiteUrl: string) => {
    const response = await fetch(api('/listings'), {
      method: 'POST',
      headers: bearer(token),
      body: listingForm({ ...FIELDS, website_url: websiteUrl }, [{ name: 'home.png', data: solidPng() }]),
    });
    if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
    return (await response.json()) as Json;
  };
  const ownership = (id: string, token: string) => get(api(`/listings/${id}/ownership`), bearer(token));
  const check = (id: string, token: string) => post(api(`/listings/${id}/ownership/check`), {}, bearer(token));

  beforeAll(async () => {
    [dns, site] = await Promise.all([startLocalDnsServer(), startLocalProofSite()]);
    stack = await startStack({
      services: ['auth', 'admin', 'listings'],
      env: {
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        RATE_LIMIT_SCALE: '100',
        BROWSE_CACHE_MS: '0',
        // Test config only (refused in production): the local DNS server and site, which live on 127.0.0.1.
        DOMAIN_PROOF_TIMEOUT_MS: String(TIMEOUT_MS),
        DOMAIN_PROOF_DNS_SERVERS: dns.address,
        DOMAIN_PROOF_HTTP_SCHEME: 'http',
        DOMAIN_PROOF_HTTP_PORT: String(site.port),
        DOMAIN_PROOF_ALLOW_ADDRESSES: '127.0.0.1',
      },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([dns?.close(), site?.close()]);
  });

  it('verifies a listing by a DNS TXT record; the badge shows on the listing, its browse card and the admin review', async () => {
    const seller = await registerUser(stack.url);
    const host = domain('soap');
    const listing = await createListing(seller.token, `https://${host}/shop`);
    expect(listing.ownership_verified).toBe(false);

    const proof = await ownership(listing.id, seller.token);
    expect(proof.status).toBe(200);
    expect(proof.body).toMatchObject({ listing_id: listing.id, domain: host, verified: false, verified_at: null, method: null, next_check_at: null });
    expect(proof.body.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(proof.body.txt_record).toBe(`site-market-verification=${proof.body.token}`);
    expect(proof.body.file_url).toBe(`https://${host}/.well-known/site-market-verification.txt`);
    // The token is the listing's: asking again gives the same one.
    expect((await ownership(listing.id, seller.token)).body.token).toBe(proof.body.token);

    dns.set(host, { txt: ['v=spf1 -all', proof.body.txt_record] });
    const checked = await check(listing.id, seller.token);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ verified: true, method: 'dns' });
    expect(Date.parse(checked.body.verified_at)).toBeGreaterThan(Date.now() - 60_000);

    expect((await get(api(`/listings/${listing.id}`), bearer(seller.token))).body.ownership_verified).toBe(true);
    const admin = await get(api('/admin/listings'), bearer(adminToken));
    expect(admin.body.listings.find((l: Json) => l.id === listing.id)).toMatchObject({ ownership_verified: true });
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(200);
    expect((await get(api(`/listings/${listing.id}`))).body.ownership_verified).toBe(true);
    const browse = await get(api('/listings?limit=100'));
    expect(browse.body.listings.find((l: Json) => l.id === listing.id)).toMatchObject({ ownership_verified: true });
  });

  it('verifies a listing by the well-known file', async () => {
    const seller = await registerUser(stack.url);
    const host = domain('file');
    const listing = await createListing(seller.token, `https://${host}`);
    const { token } = (await ownership(listing.id, seller.token)).body;
    dns.set(host, { a: ['127.0.0.1'] });
    site.set(host, { body: `${token}\n` });
    const checked = await check(listing.id, seller.token);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ verified: true, method: 'file' });
    expect(site.requests).toContain(host);
  });

  it('refuses another token with a {detail} naming the right one, and paces the checks', async () => {
    const seller = await registerUser(stack.url);
    const host = domain('wrong');
    const listing = await createListing(seller.token, `https://${host}`);
    const { token } = (await ownership(listing.id, seller.token)).body;
    dns.set(host, { txt: ['site-market-verification=someone-elses-token'] });
    const refused = await check(listing.id, seller.token);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain(`${host} shows a site-market-verification token, but not this one`);
    expect(refused.body.detail).toContain(token);
    expect((await get(api(`/listings/${listing.id}`), bearer(seller.token))).body.ownership_verified).toBe(false);

    dns.set(host, { txt: [`site-market-verification=${token}`] });
    const tooSoon = await check(listing.id, seller.token);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.detail).toMatch(/checked a moment ago\. Please try again in \d+ seconds?\.$/);
    // The listings service's quota crosses NATS and reaches the client as headers (ADR 0064).
    const wait = Number(tooSoon.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(10);
    expect(tooSoon.headers.get('ratelimit-policy')).toBe('"domain-check-pause";q=1;w=10');
    expect(tooSoon.headers.get('ratelimit')).toBe(`"domain-check-pause";r=0;t=${wait}`);
    expect(Date.parse((await ownership(listing.id, seller.token)).body.next_check_at)).toBeGreaterThan(Date.now());
  });

  it('answers a domain that does not answer with a quick 503 {detail}', async () => {
    const seller = await registerUser(stack.url);
    const host = domain('silent');
    const listing = await createListing(seller.token, `https://${host}`);
    dns.set(host, { silent: true });
    const started = Date.now();
    const slow = await check(listing.id, seller.token);
    expect(slow.status).toBe(503);
    expect(slow.body.detail).toBe(`${host} did not answer in time. Please try again in a minute; if it keeps failing, check that the domain resolves.`);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1_500);
  });

  it('refuses a redirect to a private or link-local address without following it', async () => {
    const seller = await registerUser(stack.url);
    const host = domain('redirect');
    const listing = await createListing(seller.token, `https://${host}`);
    dns.set(host, { a: ['127.0.0.1'] });
    site.set(host, { redirect: 'http://169.254.169.254/latest/meta-data/' });
    const refused = await check(listing.id, seller.token);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('points at a private or reserved address (169.254.169.254), which we never connect to');
    expect((await get(api(`/listings/${listing.id}`), bearer(seller.token))).body.ownership_verified).toBe(false);
  });

  it('drops the verification when the website address changes', async () => {
    const seller = await registerUser(stack.url);
    const host = domain('moving');
    const listing = await createListing(seller.token, `https://${host}`);
    const { token } = (await ownership(listing.id, seller.token)).body;
    dns.set(host, { txt: [`site-market-verification=${token}`] });
    expect((await check(listing.id, seller.token)).body.verified).toBe(true);

    const same = await fetch(api(`/listings/${listing.id}`), { method: 'PATCH', headers: bearer(seller.token), body: listingForm({ ...FIELDS, website_url: `https://${host}`, title: 'Handmade soap shop, retitled' }) });
    expect(same.status).toBe(200);
    expect(((await same.json()) as Json).ownership_verified).toBe(true);

    const moved = await fetch(api(`/listings/${listing.id}`), { method: 'PATCH', headers: bearer(seller.token), body: listingForm({ ...FIELDS, website_url: `https://other-${host}` }) });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as Json).ownership_verified).toBe(false);
    expect((await ownership(listing.id, seller.token)).body).toMatchObject({ verified: false, verified_at: null, domain: `other-${host}`, token });
  });

  it('lets only the seller see the token and check', async () => {
    const seller = await registerUser(stack.url);
    const stranger = await registerUser(stack.url);
    const listing = await createListing(seller.token, `https://${domain('mine')}`);
    expect((await check(listing.id, stranger.token)).status).toBe(404);
    expect((await call('PATCH', api(`/admin/listings/${listing.id}`), { status: 'active' }, bearer(adminToken))).status).toBe(200);
    for (const token of [stranger.token, adminToken]) {
      expect(await check(listing.id, token)).toMatchObject({ status: 403, body: { detail: "Only the listing's seller can verify ownership of its domain" } });
      expect((await ownership(listing.id, token)).status).toBe(403);
    }
    expect((await post(api(`/listings/${listing.id}/ownership/check`), {})).status).toBe(401);
    expect((await ownership(randomUUID(), seller.token)).status).toBe(404);
  });
});
