import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { apiCall, approveListing, createListingViaApi, registerAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { sql, waitForRow } from './support/database';
import { logInAs } from './support/journey';

interface AlertEmail {
  subject: string;
  text_body: string;
  headers: Record<string, string> | null;
}

const searchCard = (page: Page, name: string) => page.getByTestId('saved-search').filter({ hasText: name });

/** Saved searches (ADR 0074): saved from browse, managed in the dashboard, alerted by email, stopped from the email. */
describe('saved searches, ending-soon reminders and their emails', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a buyer saves a search, is emailed the listing that goes live, stops the alerts from the email and manages the search', async () => {
    const tag = randomBytes(4).toString('hex');
    const name = `Gardening ${tag}`;
    const [buyer, seller] = [await registerAccount('saver'), await registerAccount('gardener')];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();

    // A visitor is asked to sign in first.
    await page.goto(`${baseUrl()}/browse?search=gardening+${tag}`);
    await page.getByRole('link', { name: 'Sign in to save this search' }).waitFor();

    await logInAs(page, buyer.username, buyer.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/browse?search=gardening+${tag}&category=Blog&max_price=20000&sort_by=price&sort_order=asc`);
    await page.getByText('0 listings', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save this search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save this search' });
    await dialog.getByText(`“gardening ${tag}” · Blog · Price up to $20,000`).waitFor();
    await dialog.getByLabel('Name').fill(name);
    await snap(page, 'saved-search-dialog');
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await page.getByRole('status').filter({ hasText: `Saved as “${name}”` }).waitFor();

    // The same filters again are refused, with the first search's name.
    await page.getByRole('button', { name: 'Save this search' }).click();
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await dialog.getByRole('alert').filter({ hasText: `You already saved these filters as "${name}"` }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('link', { name: 'Manage saved searches' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard?tab=saved-searches`);
    const card = searchCard(page, name);
    await card.getByText('Email alerts on').waitFor();
    await card.getByText('0 new listings have matched', { exact: false }).waitFor();
    expect(await card.getByRole('link', { name: 'View listings' }).getAttribute('href')).toBe(`/browse?search=gardening+${tag}&category=Blog&max_price=20000`);

    // A matching listing goes live: the buyer is emailed, once, with a one-click unsubscribe.
    const listing = await createListingViaApi(seller.token, { title: `Gardening ${tag} journal`, category: 'Blog', starting_price: '9000' });
    await approveListing(listing.id);
    const email = await waitForRow<AlertEmail>(
      `SELECT subject, text_body, headers FROM notifications.emails WHERE to_address = $1 AND kind = 'search_alert'`,
      [buyer.email],
      () => true,
      'the saved-search alert email',
      45_000,
    );
    expect(email.subject).toBe(`1 new listing matches "${name}"`);
    expect(email.text_body).toContain(`Gardening ${tag} journal (auction, $9,000): `);
    expect(email.text_body).toContain(`/listing/${listing.id}`);
    expect(email.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(.+)>$/.exec(email.headers?.['List-Unsubscribe'] ?? '')?.[1] ?? '';
    const pageLink = /Stop alerts for this search: (\S+)/.exec(email.text_body)?.[1] ?? '';
    expect(new URL(oneClick).pathname).toMatch(/^\/api\/unsubscribe\/s-/);

    await page.reload();
    await card.getByText('1 new listing has matched', { exact: false }).waitFor();
    await snap(page, 'saved-searches-tab');

    // A mail client without one-click opens the header's address in a browser: it lands on the page, nothing stopped.
    const opened = await fetch(oneClick.replace(new URL(oneClick).origin, baseUrl()), { redirect: 'manual' });
    expect([opened.status, opened.headers.get('location')]).toEqual([303, new URL(pageLink).pathname]);

    // The link in the email opens a page that asks; pressing its button stops the alerts.
    const reader = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const phone = await reader.newPage();
    await phone.goto(`${baseUrl()}${new URL(pageLink).pathname}`);
    await phone.getByRole('heading', { name: 'Stop alert emails' }).waitFor();
    await snap(phone, 'unsubscribe-page-375');
    await phone.getByRole('button', { name: 'Stop these emails' }).click();
    await phone.getByRole('status').filter({ hasText: `You will get no more alerts for "${name}".` }).waitFor();
    await snap(phone, 'unsubscribe-done-375');
    await reader.close();

    await page.reload();
    await card.getByText('Email alerts off').waitFor();
    await card.getByRole('button', { name: `Turn alerts on for ${name}` }).click();
    await card.getByText('Email alerts on').waitFor();

    // A mail client's one-click POST (RFC 8058): a form, no cookie, no token header.
    const clicked = await fetch(`${baseUrl()}${new URL(oneClick).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect([clicked.status, await clicked.json()]).toEqual([200, { message: `You will get no more alerts for "${name}"` }]);
    await page.reload();
    await card.getByText('Email alerts off').waitFor();

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this saved search?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await card.waitFor();
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await confirm.getByRole('button', { name: 'Delete search' }).click();
    await page.getByText('You have no saved searches.').waitFor();
    await context.close();
  });

  it('the tab and the browse button fit a phone', async () => {
    const buyer = await registerAccount('phonesaver');
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await logInAs(page, buyer.username, buyer.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/browse?category=SaaS&listing_type=fixed`);
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.getByRole('dialog', { name: 'Save this search' }).getByRole('button', { name: 'Save search' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved as “SaaS · Fixed price”' }).waitFor();
    await snap(page, 'browse-saved-375');
    await page.goto(`${baseUrl()}/dashboard?tab=saved-searches`);
    await searchCard(page, 'SaaS · Fixed price').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snap(page, 'saved-searches-tab-375');
    await context.close();
  });

  it('a watcher is reminded a day before a watched auction ends, and turns the reminders off in the Watchlist tab', async () => {
    const tag = randomBytes(4).toString('hex');
    const [watcher, seller] = [await registerAccount('watcher'), await registerAccount('ender')];
    const listing = await createListingViaApi(seller.token, { title: `Ending ${tag} blog`, starting_price: '6000' });
    await approveListing(listing.id);
    expect((await apiCall('POST', '/user/watchlist', { listing_id: listing.id }, watcher.token)).status).toBe(201);
    // Watched two days ago, ending in twelve hours: what a day's wait would bring.
    await sql(`UPDATE listings.watchlist SET created_at = now() - interval '2 days' WHERE listing_id = $1`, [listing.id]);
    await sql(`UPDATE listings.listings SET expires_at = now() + interval '12 hours' WHERE id = $1`, [listing.id]);
    const email = await waitForRow<AlertEmail>(
      `SELECT subject, text_body, headers FROM notifications.emails WHERE to_address = $1 AND kind = 'watch_ending'`,
      [watcher.email],
      () => true,
      'the ending-soon reminder',
      45_000,
    );
    expect(email.subject).toBe(`Ending in 24 hours: "Ending ${tag} blog"`);
    expect(email.text_body).toContain('No bids yet: it starts at $6,000.');
    expect(email.headers?.['List-Unsubscribe']).toMatch(/\/api\/unsubscribe\/w-/);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logInAs(page, watcher.username, watcher.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/dashboard?tab=watchlist`);
    const reminders = page.getByLabel('Email me 24 hours before a watched auction ends');
    await reminders.waitFor();
    expect(await reminders.isChecked()).toBe(true);
    await reminders.uncheck();
    await page.waitForFunction(() => !(document.querySelector('.watchlist-reminders input') as HTMLInputElement).disabled);
    await page.reload();
    await reminders.waitFor();
    expect(await reminders.isChecked()).toBe(false);
    const stored = await apiCall<{ reminders: boolean }>('GET', '/user/watchlist', undefined, watcher.token);
    expect(stored.body.reminders).toBe(false);
    await snap(page, 'watchlist-reminders');
    await context.close();
  });
});
