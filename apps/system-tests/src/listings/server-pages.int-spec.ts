import { eventually } from '@market/server-kit/testing';
import { bearer, call, post, signUp as registerUser, startStack, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'pages-admin@example.com', password: 'pages-admin-pass-1' };
const ORIGIN = 'https://market.example';
const STATE = '<script type="application/json" id="market-state">';

/** Public pages rendered by the gateway with the web app's server bundle, over the real API (ADR 0072). */
describe('server-rendered pages', () => {
  let stack: Stack;
  let adminToken: string;
  let listing: { id: string };
  const page = async (path: string) => {
    const res = await fetch(`${stack.url}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', html: await res.text() };
  };

  beforeAll(async () => {
    stack = await startStack({
      // billing answers the site's payment mode (the TEST MODE banner): a page renders only when all its queries answer.
      services: ['auth', 'admin', 'listings', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', PUBLIC_URL: ORIGIN, PAGE_CACHE_MS: '60000' },
    });
    adminToken = (await post(`${stack.url}/api/auth/login`, { login: ADMIN.email, password: ADMIN.password })).body.access_token;
    const seller = await registerUser(stack.url);
    listing = await createLiveListing(stack.url, seller.token, adminToken, { title: 'Tea & <Biscuits> review blog' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("renders a listing's page with its title, canonical link, absolute previews, JSON-LD and the answers for hydration", async () => {
    const { status, type, html } = await page(`/listing/${listing.id}?utm_source=chat`);
    expect([status, type]).toEqual([200, expect.stringMatching(/^text\/html/)]);
    expect(html).toContain('<title>Tea &#38; &#60;Biscuits&#62; review blog | Site Market</title>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/listing/${listing.id}" />`);
    expect(html).toContain(`<meta property="og:url" content="${ORIGIN}/listing/${listing.id}" />`);
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="${ORIGIN}/api/uploads/[^"]+" />`));
    expect(html).toContain('<meta name="robots" content="index, follow" />');
    // The page itself, not an empty shell: the heading and the figures are in the HTML.
    expect(html).toContain('<h1>Tea &amp; &lt;Biscuits&gt; review blog</h1>');
    expect(html).toContain('$9,000');
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]);
    expect(jsonLd).toMatchObject({
      '@type': 'Product',
      name: 'Tea & <Biscuits> review blog',
      url: `${ORIGIN}/listing/${listing.id}`,
      offers: { '@type': 'Offer', price: '9000', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    const state = JSON.parse(html.slice(html.indexOf(STATE) + STATE.length, html.indexOf('</script>', html.indexOf(STATE))));
    const answers = Object.values(state.api.queries) as Array<{ status: string; data?: { id?: string } }>;
    expect(answers).toContainEqual(expect.objectContaining({ status: 'fulfilled', data: expect.objectContaining({ id: listing.id }) }));
  });

  it("renders browse in the visitor's remembered view (its cookie), keeping each view's page apart", async () => {
    const browse = async (cookie?: string) => {
      const res = await fetch(`${stack.url}/browse`, { headers: cookie ? { cookie } : {} });
      return { vary: res.headers.get('vary') ?? '', html: await res.text() };
    };
    const grid = await browse();
    expect(grid.html).toContain('class="browse-grid');
    expect(grid.vary).toMatch(/Cookie/i);
    // The list first, then the grid again: a kept page of one view is never served for the other.
    const list = await browse('theme=dark; browse_view=list');
    expect(list.html).toContain('class="browse-list');
    expect(list.html).not.toContain('class="browse-grid');
    expect(list.html).toContain('"prefs":{"browseView":"list"}');
    expect((await browse('browse_view=grid')).html).toContain('class="browse-grid');
    // Anything else in the cookie is the default, never an error.
    expect((await browse('browse_view=<script>')).html).toContain('class="browse-grid');
  });

  it('answers a missing listing and an unknown page 404 with noindex, and leaves signed-in pages to the browser', async () => {
    const missing = await page('/listing/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<meta name="robots" content="noindex" />');
    expect(missing.html).toContain('<h1>Listing not found</h1>');
    const unknown = await page('/no-such-page');
    expect([unknown.status, unknown.html.includes('<h1>Page not found</h1>')]).toEqual([404, true]);
    // A path that reads as another site's address stays a path of this one: no canonical link or preview points away.
    const hijack = await page(`//attacker.example/listing/${listing.id}`);
    expect(hijack.status).toBe(404);
    expect(hijack.html).not.toMatch(/(?:href|content)="https?:\/\/attacker\.example/);
    const dashboard = await page('/dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.html).toContain('<div id="root"></div>');
    expect(dashboard.html).not.toContain(STATE);
  });

  it('drops a kept page on its listing event: a change shows at once, not after the cache time', async () => {
    // The badge's markup, not its style: the page carries its stylesheets inline (ADR 0072, amended).
    const FEATURED_BADGE = 'class="badge badge-featured"';
    expect((await page(`/listing/${listing.id}`)).html).not.toContain(FEATURED_BADGE);
    const featured = await call('PATCH', `${stack.url}/api/admin/listings/${listing.id}`, { featured: true }, bearer(adminToken));
    expect(featured.status).toBe(200);
    // PAGE_CACHE_MS is a minute here: only the listing event can make the change show within the wait.
    await eventually(async () => expect((await page(`/listing/${listing.id}`)).html).toContain(FEATURED_BADGE));
  });

  it("serves the browser's shell, never a 5xx, when the page's data cannot be read (no listings-service answers)", async () => {
    const bare = await startStack({ services: ['auth'], env: { PUBLIC_URL: ORIGIN, RPC_TIMEOUT_MS: '1000' } });
    try {
      for (const path of [`/listing/${listing.id}`, '/browse?category=Blog']) {
        const res = await fetch(`${bare.url}${path}`);
        const html = await res.text();
        expect([path, res.status, html.includes('<div id="root"></div>'), html.includes(STATE)]).toEqual([path, 200, true, false]);
      }
    } finally {
      await bare.stop();
    }
  });
});
