import { eventually } from '@market/server-kit/testing';
import { signUp as registerUser, post, startStack, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'sitemap-admin@example.com', password: 'sitemap-admin-pass-1' };
const ORIGIN = 'https://market.example';

/** Robots and sitemaps through the gateway, from listings-service over NATS (ADR 0071). */
describe('the files crawlers ask for', () => {
  let stack: Stack;
  let adminToken: string;
  const fetchText = async (path: string) => {
    const res = await fetch(`${stack.url}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'admin', 'listings'], env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', PUBLIC_URL: ORIGIN } });
    adminToken = (await post(`${stack.url}/api/auth/login`, { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers robots.txt itself, not the app page, naming the sitemap by PUBLIC_URL', async () => {
    const robots = await fetchText('/robots.txt');
    expect(robots).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/plain/) });
    expect(robots.text).toContain('Disallow: /dashboard');
    expect(robots.text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(robots.text).not.toContain('<html');
  });

  it('lists a listing in the sitemap once it is approved (the cached file drops on the listing event), and 404s past the last file', async () => {
    const before = await fetchText('/sitemaps/listings-1.xml');
    expect(before).toMatchObject({ status: 200, type: expect.stringMatching(/^application\/xml/) });
    const seller = await registerUser(stack.url);
    const listing = await createLiveListing(stack.url, seller.token, adminToken);
    expect(before.text).not.toContain(listing.id);
    await eventually(async () => expect((await fetchText('/sitemaps/listings-1.xml')).text).toContain(`<loc>${ORIGIN}/listing/${listing.id}</loc>`));

    const index = await fetchText('/sitemap.xml');
    expect(index.text).toContain(`<loc>${ORIGIN}/sitemaps/pages.xml</loc>`);
    expect(index.text).toContain(`<loc>${ORIGIN}/sitemaps/listings-1.xml</loc>`);
    expect(index.text).not.toContain('listings-2.xml');
    expect((await fetchText('/sitemaps/pages.xml')).text).toContain(`<loc>${ORIGIN}/browse?category=E-commerce</loc>`);
    for (const path of ['/sitemaps/listings-2.xml', '/sitemaps/listings-0.xml', '/sitemaps/secrets.xml']) {
      const missing = await fetchText(path);
      expect([path, missing.status, JSON.parse(missing.text)]).toEqual([path, 404, expect.objectContaining({ code: 'not_found', detail: 'No such sitemap' })]);
    }
  });
});
