import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { ListingDto } from '@market/contracts';
import { apiCall, approveListing, createListingViaApi, registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { loggedInPage, sidewaysOverflow } from './support/sales';
import { logInAsAdmin } from './support/journey';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** Screenshots the page at 1280 and at 375 px wide, where nothing may scroll sideways. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await snap(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

/**
 * A seller verifies a listing's revenue and traffic through the sandbox's Stripe and Google stand-ins (npm start's and
 * this stack's, ADR 0084), and buyers, browse and the admin review see the figures beside the claims (D24).
 */
describe('verified revenue and traffic (D24, ADR 0084)', () => {
  let browser: Browser;
  let seller: ApiAccount;
  let listing: ListingDto;
  let tag: string;
  // The sandbox's key convention: its first digits are the account's monthly revenue in cents ($700 against a $1,000 claim).
  const key = `rk_test_journey70000x${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    tag = `heron${randomBytes(3).toString('hex')}`;
    seller = await registerAccount('vfseller');
    listing = await createListingViaApi(seller.token, { title: `Verified ${tag} newsletter`, monthly_revenue: '1000', annual_revenue: '12000', monthly_traffic: '20000' });
    await approveListing(listing.id);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the seller connects Stripe with a restricted key and GA4 through the consent, from the listing', async () => {
    const page = await loggedInPage(browser, seller, DESKTOP);
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    const panel = page.getByRole('region', { name: 'Verify revenue and traffic' });
    await panel.getByLabel('Restricted key').fill(`sk_test_${'x'.repeat(24)}`);
    await panel.getByRole('button', { name: 'Connect Stripe' }).click();
    await panel.getByRole('alert').filter({ hasText: 'secret key' }).waitFor();

    await panel.getByLabel('Restricted key').fill(key);
    await panel.getByRole('button', { name: 'Connect Stripe' }).click();
    await panel.getByText('Stripe is connected').waitFor();
    // The key is never shown again, nor left in the field.
    expect(await page.content()).not.toContain(key);

    await panel.getByLabel('GA4 property id').fill('20000');
    await panel.getByRole('button', { name: 'Connect Google Analytics' }).click();
    // Google's consent page (the stand-in's, marked TEST MODE), then back through /verify/ga4 to the listing.
    await page.getByRole('heading', { name: /TEST MODE/ }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${baseUrl()}/listing/${listing.id}`);
    await page.getByTestId('verified-traffic-badge').waitFor();
    await shoot(page, 'verified-figures-seller');
  });

  it('a buyer sees the badges, the 12-month charts and the warning on the inflated revenue claim', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    const figures = page.getByRole('region', { name: 'Verified figures' });
    await figures.getByTestId('verified-revenue-badge').filter({ hasText: 'Revenue verified by Stripe' }).waitFor();
    await figures.getByTestId('verified-traffic-badge').filter({ hasText: 'Traffic verified by Google Analytics' }).waitFor();
    expect(await figures.getByTestId('claim-warning').allTextContents()).toEqual([expect.stringContaining('Seller claims $1,000/mo; verified $700/mo')]);
    expect(await figures.getByText('TEST MODE').count()).toBeGreaterThan(0);
    // Twelve months in each chart.
    expect(await figures.getByTestId('verified-revenue').locator('svg rect[class^="month-bar-"]').count()).toBe(12);
    expect(await page.getByRole('region', { name: 'Verify revenue and traffic' }).count()).toBe(0);
    await shoot(page, 'verified-figures-buyer');

    // Browse filters to listings whose claims their figures back: the traffic claim holds, the revenue claim does not.
    await page.goto(`${baseUrl()}/browse?search=${tag}&verified_traffic=true`);
    const card = page.getByTestId('listing-card').filter({ hasText: tag });
    await card.getByTestId('traffic-verified-badge').waitFor();
    expect(await card.getByTestId('revenue-verified-badge').count()).toBe(0);
    expect(await page.getByLabel('Verified traffic').isChecked()).toBe(true);
    // Beside each box, how many it would show under the other filters: this search's one listing backs only its traffic.
    await page.getByText('Verified traffic (1)').waitFor();
    await page.getByText('Verified revenue (0)').waitFor();
    const byRevenue = await apiCall<{ total: number }>('GET', `/listings?search=${tag}&verified_revenue=true`);
    expect(byRevenue.body.total).toBe(0);
    await shoot(page, 'verified-figures-browse');
    await context.close();
  });

  it('the admin review flags the inflated claim; a disconnect takes the figures and the badge away', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const admin = await context.newPage();
    await logInAsAdmin(admin);
    await admin.waitForURL(`${baseUrl()}/dashboard`);
    await admin.getByRole('link', { name: 'Listings', exact: true }).click();
    await admin.getByLabel('Search', { exact: true }).fill(tag);
    const row = admin.getByTestId('admin-listing-row').filter({ hasText: tag });
    await row.getByTestId('claim-flag-revenue').filter({ hasText: 'Claim above verified revenue' }).waitFor();
    expect(await row.getByTestId('claim-flag-traffic').count()).toBe(0);
    await shoot(admin, 'verified-figures-admin');
    await context.close();

    const page = await loggedInPage(browser, seller, DESKTOP);
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    const panel = page.getByRole('region', { name: 'Verify revenue and traffic' });
    await panel.getByRole('button', { name: 'Disconnect Stripe' }).click();
    await page.getByRole('dialog', { name: 'Disconnect Stripe?' }).getByRole('button', { name: 'Disconnect', exact: true }).click();
    await panel.getByLabel('Restricted key').waitFor();
    const shown = await apiCall<ListingDto>('GET', `/listings/${listing.id}`);
    expect([shown.body.revenue_verified, shown.body.verification?.revenue, shown.body.traffic_verified]).toEqual([false, null, true]);
  });
});
