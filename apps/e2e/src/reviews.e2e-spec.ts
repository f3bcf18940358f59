import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { ReviewDto, SellerPageDto } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { apiCall, registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser } from './support/browser';
import { completedSale } from './support/completed-sale';
import { loggedInPage, sidewaysOverflow } from './support/sales';
import { logInAsAdmin } from './support/journey';

const SHOTS = '/tmp/shots';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** Screenshots the page at 1280 and at 375 px wide, where nothing may scroll sideways. */
async function shoot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const before = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}-1280.png`, fullPage });
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/${name}-375.png`, fullPage });
  await page.setViewportSize(before);
}

/** The server-rendered HTML of a page and its status, as a crawler gets it (ADR 0072). */
async function serverHtml(path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { accept: 'text/html' } });
  return { status: response.status, html: await response.text() };
}

const reviewRow = (page: Page, title: string) => page.getByTestId('invoice-row').filter({ hasText: title });

describe('reviews of completed sales and the seller page (D23, ADR 0083)', () => {
  let browser: Browser;
  let seller: ApiAccount;
  let buyer: ApiAccount;
  let title: string;
  let sale: { listingId: string; invoiceId: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    title = `Reviewed heron blog ${randomBytes(3).toString('hex')}`;
    seller = await registerAccount('rvseller');
    buyer = await registerAccount('rvbuyer');
    sale = await completedSale(seller, buyer, title, 2400);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the buyer reviews the seller from Invoices; both reviews show once the seller has written theirs', async () => {
    const page = await loggedInPage(browser, buyer, DESKTOP);
    await page.goto(`${baseUrl()}/dashboard?tab=invoices`);
    const row = reviewRow(page, title);
    await row.getByRole('button', { name: `Leave a review of ${seller.username} for` }).click();
    await page.waitForURL(new RegExp(`[?&]review=${sale.invoiceId}`));
    // The dialog is in the address: a reload keeps it open.
    await page.reload();
    const dialog = page.getByRole('dialog', { name: `Review ${seller.username}` });
    await dialog.waitFor();

    // The schema's rules before anything is sent.
    await dialog.getByRole('button', { name: 'Send review' }).click();
    await dialog.getByText('Give 1 to 5 stars').waitFor();
    await dialog.getByText('At least 10 characters').waitFor();
    // The stars are radio buttons: the arrow keys move the choice.
    await dialog.getByRole('radio', { name: '3 stars' }).check();
    await page.keyboard.press('ArrowRight');
    expect(await dialog.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await dialog.getByLabel('Your review').fill('Smooth handover, <b>answered</b> every question.');
    await shoot(page, 'review-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send review' }).click();
    await dialog.getByText(`Thanks — your review will appear when ${seller.username} has written theirs`).waitFor();
    await shoot(page, 'review-dialog-sent', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(new URL(page.url()).searchParams.get('review')).toBeNull();
    await row.getByText('Reviewed', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /Leave a review/ }).count()).toBe(0);

    // Private until the other party writes (D23): a second review is refused, the seller page shows none yet.
    const again = await apiCall('POST', '/reviews', { invoice_id: sale.invoiceId, stars: 1, text: 'Changed my mind entirely.' }, buyer.token);
    expect(again.status).toBe(409);
    expect((await apiCall<SellerPageDto>('GET', `/sellers/${seller.username}`)).body.seller.review_count).toBe(0);

    // The seller reviews the buyer: both show now, and the buyer's row shows the seller's review of them.
    const theirs = await apiCall<ReviewDto>('POST', '/reviews', { invoice_id: sale.invoiceId, stars: 5, text: 'Paid at once, a pleasure to deal with.' }, seller.token);
    expect(theirs.status).toBe(201);
    await page.reload();
    await row.getByText(`${seller.username}'s review of you`).waitFor();
    await row.getByText('Paid at once, a pleasure to deal with.').waitFor();
    await page.context().close();
  });

  it("shows the rating on the listing's seller card and on the server-rendered seller page; the seller replies", async () => {
    const listing = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await listing.goto(`${baseUrl()}/listing/${sale.listingId}`);
    const card = listing.locator('.seller-card');
    await eventually(async () => expect(await card.getByTestId('seller-rating').textContent()).toContain('4.0 (1 review)'));
    expect(await card.getByRole('img', { name: '4 out of 5' }).count()).toBe(1);
    expect(await card.getByTestId('seller-sales').textContent()).toBe('1');
    await card.getByRole('link', { name: /profile and reviews/ }).click();
    await listing.waitForURL(`${baseUrl()}/seller/${seller.username}`);
    await listing.getByText('Smooth handover, <b>answered</b> every question.').waitFor();
    await listing.context().close();

    // A crawler gets the page whole, with its own title and canonical address (ADR 0072).
    const rendered = await serverHtml(`/seller/${seller.username}`);
    expect(rendered.status).toBe(200);
    expect(rendered.html).toContain(`<title>${seller.username} (@${seller.username}) | `);
    expect(rendered.html).toContain(`<link rel="canonical" href="${baseUrl()}/seller/${seller.username}" />`);
    expect(rendered.html).toContain('Rated 4 out of 5 from 1 review, 1 sale completed');
    expect(rendered.html).toContain('Smooth handover, &lt;b&gt;answered&lt;/b&gt; every question.');

    const page = await loggedInPage(browser, seller, DESKTOP);
    await page.goto(`${baseUrl()}/seller/${seller.username}`);
    const review = page.getByTestId('review-item').filter({ hasText: 'Smooth handover' });
    await review.getByRole('button', { name: 'Reply' }).click();
    await review.getByLabel('Your public reply (one per review)').fill('Thank you, enjoy the herons!');
    await review.getByRole('button', { name: 'Post reply' }).click();
    await review.getByTestId('review-reply').getByText('Thank you, enjoy the herons!').waitFor();
    expect(await review.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    expect(await page.getByTestId('seller-page-rating').textContent()).toContain('4.0');
    await shoot(page, 'seller-page-reviews');
    await page.context().close();
  });

  it('shows the empty states, and answers 404 "This account is not active." for an unknown account', async () => {
    const newcomer = await registerAccount('rvnew');
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.goto(`${baseUrl()}/seller/${newcomer.username}`);
    await page.getByText('No reviews yet').waitFor();
    await page.getByText('No live listings').waitFor();
    expect(await page.getByTestId('seller-page-rating').textContent()).toBe('No ratings yet');
    await shoot(page, 'seller-page-empty');

    const missing = `nobody-${randomBytes(4).toString('hex')}`;
    const rendered = await serverHtml(`/seller/${missing}`);
    expect(rendered.status).toBe(404);
    expect(rendered.html).toContain('This account is not active.');
    expect(rendered.html).toContain('<meta name="robots" content="noindex" />');
    await page.goto(`${baseUrl()}/seller/${missing}`);
    await page.getByRole('heading', { name: 'This account is not active.' }).waitFor();
    await shoot(page, 'seller-page-not-active');
    await page.context().close();
  });

  it('an admin hides a review with a reason: it leaves the page and the rating', async () => {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await logInAsAdmin(page);
    await page.waitForURL(/\/dashboard/);
    await page.goto(`${baseUrl()}/seller/${seller.username}`);
    const review = page.getByTestId('review-item').filter({ hasText: 'Smooth handover' });
    await review.getByRole('button', { name: 'Hide' }).click();
    const dialog = page.getByRole('dialog', { name: 'Hide this review' });
    await dialog.getByRole('button', { name: 'Hide review' }).click();
    await dialog.getByText('Say why in at least 10 characters').waitFor();
    await dialog.getByLabel('Why does this review break the rules?').fill('Contains markup meant to test the filter.');
    await dialog.getByRole('button', { name: 'Hide review' }).click();
    await page.getByText('The review is hidden.').waitFor();
    await page.getByText('No reviews yet').waitFor();
    expect(await page.getByTestId('seller-page-rating').textContent()).toBe('No ratings yet');
    await page.context().close();
  });
});
