import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { apiCall, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { sql } from './support/database';
import { loggedInPage, openSale, waitForListingStatus } from './support/sales';

describe('a buy-now nobody pays for (ADR 0043)', () => {
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the buyer sees "Pay by"; once the window passes the invoice reads Cancelled and the listing is back in browse', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('lapseseller');
    const buyer = await registerAccount('lapsebuyer');
    const title = `Kestrel notes ${tag}`;
    const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '2500' });
    const bought = await apiCall<{ invoice: { id: string } }>('POST', `/listings/${listing.id}/buy-now`, undefined, buyer.token);
    expect([200, 201]).toContain(bought.status);
    await waitForListingStatus(listing.id, 'sold');

    const page = await loggedInPage(browser, buyer);
    pages.push(page);
    await page.goto(`${baseUrl()}/dashboard?tab=invoices`);
    const row = page.getByTestId('invoice-row').filter({ hasText: title });
    await row.getByTestId('invoice-pay-by').getByText(/^Pay by /).waitFor();
    await snap(page, 'payment-window-pay-by');

    // The window passes (what 48 hours would do); the system's sweep lapses it within a second.
    const [invoice] = await sql<{ id: string }>(`UPDATE billing.invoices SET pay_by = now() - interval '1 minute' WHERE listing_id = $1 RETURNING id`, [listing.id]);
    expect(invoice).toBeDefined();
    await waitForListingStatus(listing.id, 'active', 20_000);

    await page.reload();
    await row.getByTestId('invoice-status').getByText('Cancelled').waitFor();
    await row.getByText(/^Sale cancelled/).waitFor();
    await snap(page, 'payment-window-cancelled');

    await page.goto(`${baseUrl()}/browse?search=${tag}`);
    await page.getByTestId('listing-card').getByText(title).waitFor();
    await snap(page, 'payment-window-back-in-browse');
  });
});
