import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { apiCall, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAsAdmin } from './support/journey';
import { bidViaApi, loggedInPage, openSale, waitForListingStatus } from './support/sales';
import { sql, waitForRow } from './support/database';

// ADR 0042: what the review vouched for is locked once there are bids, and only an admin's cancellation, with a
// reason every bidder reads, ends such a sale early.
describe('a listing with bids stays what was approved', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the seller finds the reviewed fields locked and cannot delete it; the admin cancels it with a reason and the bidder is told', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('lockseller');
    const bidder = await registerAccount('lockbidder');
    const listing = await openSale(seller, { title: `Locked garden blog ${tag}`, starting_price: '8000' });
    await bidViaApi(bidder, listing.id, 8000);
    await waitForRow<{ bid_count: number }>('SELECT bid_count FROM listings.listings WHERE id = $1', [listing.id], (row) => row.bid_count === 1, 'the listing to count its bid');

    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 375, height: 812 }],
    ] as const) {
      const page = await loggedInPage(browser, seller, viewport);
      await page.goto(`${baseUrl()}/edit-listing/${listing.id}`);
      await page.getByRole('note').filter({ hasText: 'This listing has bids' }).waitFor();
      expect(await page.getByLabel('Title').isDisabled()).toBe(true);
      expect(await page.getByLabel('Starting price', { exact: false }).first().isDisabled()).toBe(true);
      expect(await page.getByLabel('Status').isDisabled()).toBe(false);
      await snap(page, `integrity-e2e-edit-locked-${name}`);
      await page.goto(`${baseUrl()}/dashboard?tab=listings`);
      const card = page.getByTestId('listing-card').filter({ hasText: listing.title });
      await card.getByText('Has bids, so it cannot be deleted').waitFor();
      expect(await card.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      await page.context().close();
    }
    // The API refuses the same things the page does not offer.
    const refused = await apiCall<{ detail: string }>('DELETE', `/listings/${listing.id}`, undefined, seller.token);
    expect(refused.status).toBe(409);

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminContext.newPage();
    await logInAsAdmin(admin);
    await admin.waitForURL(`${baseUrl()}/dashboard`);
    await admin.goto(`${baseUrl()}/dashboard?tab=listings`);
    const row = admin.getByTestId('admin-listing-row').filter({ hasText: listing.title });
    await row.getByRole('button', { name: 'Cancel' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Cancel listing' });
    await dialog.getByText('Its 1 bid become void').waitFor();
    await dialog.getByRole('button', { name: 'Cancel listing' }).click();
    await dialog.getByText('at least 10 characters').waitFor();
    const reason = `The seller could not show they own the domain ${tag}.`;
    await dialog.getByLabel('Reason (sent to the bidders and the seller)').fill(reason);
    await snap(admin, 'integrity-e2e-admin-cancel-dialog');
    await dialog.getByRole('button', { name: 'Cancel listing' }).click();
    await admin.getByRole('status').filter({ hasText: 'was cancelled' }).waitFor();
    // The row reads Cancelled, a status no one can change any more.
    await row.locator('select.status-select-cancelled:disabled').waitFor();
    await adminContext.close();

    await waitForListingStatus(listing.id, 'cancelled');
    await waitForRow<{ status: string }>('SELECT status FROM bidding.bids WHERE listing_id = $1', [listing.id], (r) => r.status === 'rejected', 'the bid to be void');
    const mails = async () =>
      sql<{ kind: string }>(`SELECT kind FROM notifications.emails WHERE to_address = $1 AND kind = 'listing_cancelled_bidder'`, [bidder.email]);
    await waitForRow<{ kind: string }>(
      `SELECT kind FROM notifications.emails WHERE to_address = $1 AND kind = 'listing_cancelled_bidder'`,
      [bidder.email],
      () => true,
      'the bidder to be emailed',
    );
    expect(await mails()).toHaveLength(1);

    // The bidder's link still opens the page, which says what happened.
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 375, height: 812 }],
    ] as const) {
      const page = await loggedInPage(browser, bidder, viewport);
      await page.goto(`${baseUrl()}/listing/${listing.id}`);
      await page.getByText('Site Market cancelled this listing').waitFor();
      await snap(page, `integrity-e2e-listing-cancelled-${name}`);
      await page.context().close();
    }
  });
});
