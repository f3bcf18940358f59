import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { apiCall, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { sql } from './support/database';
import { snapBoth } from './support/invoices';
import { logInAsAdmin } from './support/journey';
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

  it('an admin cancels an unpaid sale only with a reason both parties will read; the listing is back on sale', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('cancelseller');
    const buyer = await registerAccount('cancelbuyer');
    const title = `Osprey guides ${tag}`;
    const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '1800' });
    const bought = await apiCall('POST', `/listings/${listing.id}/buy-now`, undefined, buyer.token);
    expect([200, 201]).toContain(bought.status);
    await waitForListingStatus(listing.id, 'sold');

    const admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    pages.push(admin);
    await logInAsAdmin(admin);
    await admin.waitForURL(`${baseUrl()}/dashboard`);
    await admin.goto(`${baseUrl()}/dashboard?tab=transactions`);
    const row = admin.getByTestId('admin-transaction-row').filter({ hasText: title });
    await row.getByRole('button', { name: /^Cancel sale / }).click();
    const dialog = admin.getByRole('dialog', { name: 'Cancel sale' });
    await dialog.getByRole('button', { name: 'Cancel sale' }).click();
    await dialog.getByText('Give the reason the buyer and the seller will read (10 to 500 characters)').waitFor();
    await dialog.getByLabel('Reason (sent to the buyer and the seller)').fill(`The buyer asked to withdraw from ${title}.`);
    await snapBoth(admin, 'admin-cancel-sale-dialog');
    await dialog.getByRole('button', { name: 'Cancel sale' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByText(/cancelled; the listing is back on sale\.$/).waitFor();
    await waitForListingStatus(listing.id, 'active', 20_000);
  });
});
