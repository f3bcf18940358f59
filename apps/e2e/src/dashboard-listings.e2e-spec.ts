import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { apiCall, adminToken, createListingViaApi, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { logInAs, logInAsAdmin } from './support/journey';

interface Listing {
  id: string;
  title: string;
  status: string;
  featured: boolean;
}

/** Creates a listing the way the sell wizard does: multipart POST /api/listings. */
const createListing = (token: string, title: string) => createListingViaApi(token, { title });

const card = (page: Page, title: string) => page.getByTestId('listing-card').filter({ hasText: title });
const row = (page: Page, title: string) => page.getByTestId('admin-listing-row').filter({ hasText: title });

describe('dashboard listings, admin review and the watchlist', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a seller follows two listings through review, feature, delete, pause and a buyer watches one', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('dashseller');
    const alpha = await createListing(seller.token, `Alpha garden blog ${tag}`);
    const beta = await createListing(seller.token, `Beta travel blog ${tag}`);
    expect([alpha.status, beta.status]).toEqual(['pending', 'pending']);

    // The seller sees both as Pending Review, in My Listings and in the Overview's recent listings.
    const sellerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const sellerPage = await sellerContext.newPage();
    await logInAs(sellerPage, seller.username, seller.password);
    await sellerPage.waitForURL(`${baseUrl()}/`);
    await sellerPage.goto(`${baseUrl()}/dashboard?tab=listings`);
    for (const listing of [alpha, beta]) {
      await card(sellerPage, listing.title).getByText('Pending Review', { exact: true }).waitFor();
      expect(await card(sellerPage, listing.title).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(`/edit-listing/${listing.id}`);
    }
    expect(await sellerPage.getByTestId('listing-card').count()).toBe(2);
    await snap(sellerPage, 'dash-e2e-my-listings-pending');
    await sellerPage.getByRole('link', { name: 'Overview' }).click();
    const recent = sellerPage.getByRole('region', { name: 'Recent listings' });
    await recent.getByText(beta.title).waitFor();
    await recent.getByText(alpha.title).waitFor();
    expect(await recent.getByRole('link', { name: 'View all' }).getAttribute('href')).toBe('/dashboard?tab=listings');

    // The admin finds them under Pending Review, approves alpha with the dropdown, features it and deletes beta.
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const adminPage = await adminContext.newPage();
    await logInAsAdmin(adminPage);
    await adminPage.waitForURL(`${baseUrl()}/dashboard`);
    await adminPage.getByRole('link', { name: 'Listings', exact: true }).click();
    await adminPage.getByLabel('Status', { exact: true }).selectOption({ label: 'Pending Review' });
    await adminPage.getByLabel('Search', { exact: true }).fill(tag);
    await adminPage.getByText('Status: Pending Review').waitFor();
    await row(adminPage, alpha.title).waitFor();
    await row(adminPage, beta.title).waitFor();
    expect(await adminPage.getByTestId('admin-listing-row').count()).toBe(2);
    await snap(adminPage, 'admin-listings-e2e-pending');

    await row(adminPage, alpha.title).getByLabel(`Status of ${alpha.title}`).selectOption('active');
    // Applied at once: under the Pending Review filter the approved row leaves the table.
    await row(adminPage, alpha.title).waitFor({ state: 'detached' });
    await adminPage.getByRole('button', { name: 'Remove filter Status: Pending Review' }).click();
    await row(adminPage, alpha.title).waitFor();
    expect(await row(adminPage, alpha.title).getByLabel(`Status of ${alpha.title}`).inputValue()).toBe('active');
    await row(adminPage, alpha.title).getByRole('button', { name: 'Feature', exact: true }).click();
    await row(adminPage, alpha.title).getByRole('button', { name: 'Unfeature' }).waitFor();
    await row(adminPage, alpha.title).getByText('★ Featured').waitFor();

    await row(adminPage, beta.title).getByRole('button', { name: 'Delete' }).click();
    const confirm = adminPage.getByRole('dialog', { name: 'Delete listing' });
    await confirm.getByText('Are you sure you want to delete this listing?', { exact: true }).waitFor();
    // Escape answers no: the listing stays; the second time the admin confirms.
    await adminPage.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await row(adminPage, beta.title).getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete listing' }).click();
    await row(adminPage, beta.title).waitFor({ state: 'detached' });
    await snap(adminPage, 'admin-listings-e2e-after');
    const admin = await adminToken();
    const all = await apiCall<{ listings: Listing[] }>('GET', '/admin/listings?limit=1000', undefined, admin);
    expect(all.body.listings.find((l) => l.id === beta.id)).toBeUndefined();
    expect(all.body.listings.find((l) => l.id === alpha.id)).toMatchObject({ status: 'active', featured: true });
    const featured = async () => (await apiCall<{ listings: Listing[] }>('GET', '/listings?featured=true&limit=100')).body.listings.map((l) => l.id);
    expect(await featured()).toContain(alpha.id);

    // A buyer watches alpha; the Watchlist tab shows it and Remove empties it.
    const buyer = await registerAccount('dashbuyer');
    expect((await apiCall('POST', '/user/watchlist', { listing_id: alpha.id }, buyer.token)).status).toBe(201);
    const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const buyerPage = await buyerContext.newPage();
    await logInAs(buyerPage, buyer.username, buyer.password);
    await buyerPage.waitForURL(`${baseUrl()}/`);
    await buyerPage.goto(`${baseUrl()}/dashboard?tab=watchlist`);
    await card(buyerPage, alpha.title).waitFor();
    await snap(buyerPage, 'dash-e2e-watchlist');
    await card(buyerPage, alpha.title).getByRole('button', { name: 'Remove' }).click();
    await buyerPage.getByText('Your watchlist is empty.').waitFor();
    expect((await apiCall<{ watchlist: unknown[] }>('GET', '/user/watchlist', undefined, buyer.token)).body.watchlist).toEqual([]);

    // The seller pauses alpha from My Listings; it leaves the public listings.
    await sellerPage.getByRole('link', { name: 'My Listings' }).click();
    await card(sellerPage, alpha.title).getByText('Active', { exact: true }).waitFor();
    expect(await sellerPage.getByTestId('listing-card').count()).toBe(1);
    await card(sellerPage, alpha.title).getByRole('button', { name: 'Pause' }).click();
    await card(sellerPage, alpha.title).getByText('Paused', { exact: true }).waitFor();
    await card(sellerPage, alpha.title).getByRole('button', { name: 'Activate' }).waitFor();
    expect(await featured()).not.toContain(alpha.id);
    await snap(sellerPage, 'dash-e2e-my-listings-paused');

    await Promise.all([sellerContext.close(), adminContext.close(), buyerContext.close()]);
  });
});
