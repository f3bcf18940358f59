import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { solidPng } from '@market/server-kit/testing';
import { approveListing, createListingViaApi, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { loggedInPage, openSale } from './support/sales';

const TAG = `ssr${randomBytes(4).toString('hex')}`;

/** Holds the app's boot module (`requested` once the browser asks for it) until `release`: a press lands on the HTML alone. */
async function holdApp(page: Page): Promise<{ requested: Promise<void>; release: () => void }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = () => {};
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/assets/start-*.js', async (route) => {
    asked();
    await held;
    await route.continue();
  });
  return { requested, release };
}

/** The app's mark on the page: null before it ran, `ready` once it took the page over (`app/start.tsx`). */
const appMark = (page: Page) => page.evaluate(() => document.documentElement.dataset.app ?? null);

/**
 * Public pages come from the server whole (ADR 0072): a visitor without JavaScript, a crawler or a link preview reads
 * the listing itself, and the browser then takes the same HTML over without asking for the data again.
 */
describe('server-rendered public pages', () => {
  let browser: Browser;
  let listingId = '';
  const title = `${TAG} Sourdough <baking> blog`;

  beforeAll(async () => {
    browser = await launchBrowser();
    const seller = await registerAccount('ssrseller');
    const listing = await createListingViaApi(
      seller.token,
      {
        title,
        description: 'A baking blog with loyal readers and a famous recipe that ranks first on search engines.',
        category: 'Blog',
        website_url: `https://${TAG}.example.com`,
        monthly_revenue: '1200',
        annual_revenue: '14400',
        monthly_traffic: '4000',
        monthly_expenses: '0',
        profit_margin: '50',
        business_age_months: '14',
        monetization_methods: 'AdSense',
        listing_type: 'fixed',
        starting_price: '3400',
      },
      [solidPng(1, 1)],
    );
    listingId = listing.id;
    await approveListing(listingId);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a listing, its head and its structured data to a visitor without JavaScript, at both widths', async () => {
    for (const [width, name] of [
      [1280, 'desktop'],
      [375, 'phone'],
    ] as const) {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 860 } });
      const page = await context.newPage();
      const response = await page.goto(`${baseUrl()}/listing/${listingId}`);
      expect(response?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByText('$3,400').first().waitFor();
      expect(await page.title()).toBe(`${title} | Site Market`);
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(new RegExp(`^https?://[^/]+/listing/${listingId}$`));
      expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/^https?:\/\/[^/]+\/api\/uploads\//);
      const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(jsonLd).toMatchObject({ '@type': 'Product', name: title, offers: { price: '3400', priceCurrency: 'USD', availability: 'https://schema.org/InStock' } });
      await snap(page, `server-rendered-listing-no-js-${name}`);
      await context.close();
    }
  });

  it('is taken over by the browser without asking for the browse page again, a mismatch or an error, and then navigates', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const listingReads: string[] = [];
    const browseReads: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === `/api/listings/${listingId}`) listingReads.push(request.url());
      if (pathname === '/api/listings') browseReads.push(request.url());
    });
    await page.goto(`${baseUrl()}/browse?search=${TAG}`);
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
    await page.getByTestId('listing-card').getByRole('heading', { name: title }).waitFor();
    // Hydrated: a client-side navigation from the rendered card opens the listing (one read, made by the browser).
    await page.getByTestId('listing-card').getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe(`${title} | Site Market`);
    expect(listingReads).toHaveLength(1);
    // The browse answer came with the HTML: by the time the browser navigated away it had not asked for it again.
    expect(browseReads).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('hands a press made before the app ran to the button in its place when that part was rendered again', async () => {
    const page = await loggedInPage(browser, await registerAccount('ssrbuyer'));
    const app = await holdApp(page);
    try {
      await page.goto(`${baseUrl()}/listing/${listingId}`, { waitUntil: 'domcontentloaded' });
      await app.requested;
      await page.getByRole('button', { name: 'Contact Seller', exact: true }).click();
      // React mending a difference from the server's HTML renders that part again: the pressed element is replaced by a
      // new one saying the same, in the same place.
      await page.evaluate(() => {
        const pressed = Array.from(document.querySelectorAll('button')).find((button) => button.textContent === 'Contact Seller');
        pressed?.replaceWith(pressed.cloneNode(true));
      });
      await expect(appMark(page)).resolves.toBeNull();
    } finally {
      app.release();
    }
    await page.getByRole('dialog', { name: 'Contact Seller' }).getByLabel('Message').waitFor();
    await page.context().close();
  });

  it("does not hand a guest's Place Bid to the buyer's bid form that replaces it (an empty bid)", async () => {
    const sale = await openSale(await registerAccount('ssrauction'), { title: `${TAG} Birding blog at auction` });
    const page = await loggedInPage(browser, await registerAccount('ssrbidder'));
    const app = await holdApp(page);
    try {
      await page.goto(`${baseUrl()}/listing/${sale.id}`, { waitUntil: 'domcontentloaded' });
      await app.requested;
      // The server's HTML is a guest's: its Place Bid button, which a buyer's bid form replaces once the session is known.
      await page.getByRole('button', { name: 'Place Bid', exact: true }).click();
      await expect(appMark(page)).resolves.toBeNull();
    } finally {
      app.release();
    }
    // The hand-over is over once the app marks itself ready: the form's own Place Bid was not pressed for the buyer.
    await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
    const form = page.getByRole('form', { name: 'Place a bid' });
    await form.waitFor();
    await expect(form.getByText('Please enter your bid amount').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('answers an unknown address 404 with the not-found page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl()}/no-such-page-${TAG}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await context.close();
  });
});
