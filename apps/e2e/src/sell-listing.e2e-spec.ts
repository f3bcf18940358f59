import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { ListingDto, ListingsResponse } from '@market/contracts';
import { solidPng } from '@market/server-kit/testing';
import { apiCall, approveListing, verifyEmailFromMail } from './support/api';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAs } from './support/journey';

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function waitForText(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor();
}

describe('selling a website', () => {
  const currentPage = freshPagePerTest();

  it('sells as a guest, logs in, resumes at step 2, is approved, shows in browse, is edited and paused', async () => {
    const page = currentPage();
    const tag = randomBytes(3).toString('hex');
    const title = `Zephyr recipes ${tag} blog`;
    const account = { username: `seller_${tag}`, email: `seller_${tag}@example.com`, password: `sell-it-well-${tag}` };
    const registered = await apiCall('POST', '/auth/register', { ...account, age_confirmed: true });
    expect(registered.status).toBe(201);
    await verifyEmailFromMail(account.email);

    // Guest: only step 1, with the banner; Continue checks the fields first.
    await page.goto(`${baseUrl()}/sell`);
    await waitForText(page, 'You need an account to list your website.');
    await waitForText(page, 'Step 1 of 5: Basic Info');
    await page.getByRole('button', { name: 'Continue' }).click();
    await waitForText(page, 'Title is required');
    await waitForText(page, 'Choose a category');
    await snap(page, 'sell-e2e-guest-errors');
    await page.getByLabel('Listing title').fill(title);
    await page.getByLabel('Website URL').fill(`https://zephyr-${tag}.example.com`);
    await page.locator('label.category-card', { hasText: 'Content Site' }).click();
    await page.getByLabel('Description').fill('A recipe site with a loyal audience, steady ad income and plenty of room to grow.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Almost there!' }).waitFor();
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('preLoginListingData'))) as string)).toMatchObject({
      title,
      category: 'Content Site',
    });
    await page.getByRole('link', { name: 'Create Account' }).waitFor();
    await page.getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL(`${baseUrl()}/login`);

    // Log in: back to /sell at step 2 with step 1 restored.
    await logInAs(page, account.username, account.password);
    await page.waitForURL(`${baseUrl()}/sell`);
    await waitForText(page, 'Step 2 of 5: Financials');
    expect(await page.evaluate(() => sessionStorage.getItem('preLoginListingData'))).toBeNull();
    await page.getByRole('button', { name: 'Previous' }).click();
    expect(await page.getByLabel('Listing title').inputValue()).toBe(title);
    expect(await page.getByRole('radio', { name: /Content Site/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 2: numbers are required.
    await waitForText(page, 'Step 2 of 5: Financials');
    await page.getByRole('button', { name: 'Next' }).click();
    await waitForText(page, 'Monthly revenue is required');
    await page.getByLabel('Monthly revenue ($)').fill('1500');
    await page.getByLabel('Annual revenue ($)').fill('18000');
    await page.getByLabel('Monthly traffic (visits)').fill('42000');
    await page.getByLabel('Monthly expenses ($)').fill('300');
    await page.getByLabel('Profit margin (%)').fill('80.5');
    await page.getByLabel('Business age (months)').fill('26');
    await page.getByLabel('AdSense').check();
    await page.getByLabel('Affiliate Marketing').check();
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 3: an auction by default, with reserve and buy-now; a fixed price hides them.
    await waitForText(page, 'Step 3 of 5: Pricing');
    expect(await page.getByRole('radio', { name: /Auction/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Duration').inputValue()).toBe('7');
    await page.locator('label.choice-card', { hasText: 'Fixed price' }).click();
    expect(await page.getByLabel(/Reserve price/).count()).toBe(0);
    await page.getByLabel(/^Price \(\$\)/).waitFor();
    await page.locator('label.choice-card', { hasText: 'Auction' }).first().click();
    await page.getByLabel('Starting price ($)').fill('20000');
    await page.getByLabel(/Reserve price/).fill('100');
    await page.getByRole('button', { name: 'Next' }).click();
    await waitForText(page, 'Reserve price cannot be below the starting price');
    await page.getByLabel(/Reserve price/).fill('25000');
    await page.getByLabel('Duration').selectOption('14');
    await page.getByLabel('Reason for selling').fill('Moving on to a new project.');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 4: one PNG screenshot with a preview.
    await waitForText(page, 'Step 4 of 5: Media Upload');
    await page.getByLabel('Add screenshots').setInputFiles({ name: 'home.png', mimeType: 'image/png', buffer: solidPng(320, 200, [29, 78, 216]) });
    const preview = page.getByRole('img', { name: /Screenshot 1: home.png/ });
    await preview.waitFor();
    expect(await preview.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(320);
    await snap(page, 'sell-e2e-media');
    await page.getByRole('button', { name: 'Next' }).click();

    // Step 5: review and submit.
    await waitForText(page, 'Step 5 of 5: Review');
    await waitForText(page, '100% complete');
    await waitForText(page, '$25,000');
    // The seller reads what selling costs before submitting (ADR 0026; the demo market charges no fee).
    await page.getByTestId('selling-fee').getByText('Listing and selling is currently free.').waitFor();
    await snap(page, 'sell-e2e-review');
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await page.getByRole('heading', { name: 'Listing submitted for review!' }).waitFor();
    await waitForText(page, 'Pending Review');
    await waitForText(page, 'What happens next');
    await snap(page, 'sell-e2e-success');

    const sellerLogin = await apiCall<{ access_token: string }>('POST', '/auth/login', { login: account.username, password: account.password });
    const mine = await apiCall<ListingsResponse>('GET', '/user/listings', undefined, sellerLogin.body.access_token);
    const created = mine.body.listings.find((l) => l.title === title) as ListingDto;
    expect(created).toMatchObject({
      status: 'pending',
      category: 'Content Site',
      listing_type: 'auction',
      auction_type: 'auto',
      starting_price: 20000,
      reserve_price: 25000,
      duration_days: 14,
      profit_margin: 80.5,
      monthly_expenses: 300,
      monetization_methods: ['AdSense', 'Affiliate Marketing'],
    });
    expect(created.screenshots).toHaveLength(1);

    // An admin approves it; it shows in browse with its screenshot.
    await approveListing(created.id);
    await page.goto(`${baseUrl()}/browse?search=${encodeURIComponent(title)}`);
    const card = page.getByTestId('listing-card').filter({ hasText: title });
    await card.waitFor();
    const image = card.locator('img');
    await image.scrollIntoViewIfNeeded();
    expect(await image.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(320);
    expect(await image.getAttribute('src')).toBe(created.screenshots[0]);

    // The seller edits the title, which the review vouched for: the listing goes back to review (ADR 0042) and the page
    // says so, then returns to the dashboard; the admin approves the change.
    await page.goto(`${baseUrl()}/edit-listing/${created.id}`);
    const titleInput = page.getByLabel('Title');
    await titleInput.waitFor();
    expect(await titleInput.inputValue()).toBe(title);
    await page.getByRole('img', { name: 'Current screenshot 1' }).waitFor();
    await page.getByRole('note').filter({ hasText: 'sends this listing back to review' }).waitFor();
    const newTitle = `${title} (renamed)`;
    await titleInput.fill(newTitle);
    await snap(page, 'sell-e2e-edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await waitForText(page, 'Your changes were sent for review');
    await page.waitForURL(`${baseUrl()}/dashboard`, { timeout: 5000 });
    expect((await apiCall('GET', `/listings/${created.id}`)).status).toBe(404);
    await approveListing(created.id);
    const renamed = await apiCall<ListingDto>('GET', `/listings/${created.id}`);
    expect(renamed.body).toMatchObject({ title: newTitle, status: 'active', screenshots: created.screenshots });

    // Pausing hides it from browse.
    await page.goto(`${baseUrl()}/edit-listing/${created.id}`);
    await page.getByLabel('Status').selectOption('paused');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard`, { timeout: 5000 });
    const browse = await apiCall<{ listings: ListingDto[] }>('GET', `/listings?search=${encodeURIComponent(tag)}&limit=100`);
    expect(browse.status).toBe(200);
    expect(browse.body.listings.map((l) => l.id)).not.toContain(created.id);
    expect((await apiCall('GET', `/listings/${created.id}`)).status).toBe(404);

    // A guest is asked to log in on the edit page; a phone screen does not scroll sideways.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto(`${baseUrl()}/edit-listing/${created.id}`);
    await waitForText(page, 'Please log in to edit listings.');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl()}/sell`);
    await waitForText(page, 'Step 1 of 5: Basic Info');
    await noSidewaysScroll(page);
  });
});
