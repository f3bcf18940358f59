import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { formatDollars, minimumNextBid } from '@market/domain';
import { registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { loggedInPage, openSale, sidewaysOverflow, waitForLiveFeed } from './support/sales';

// The narrowest phone the issue names (iPhone SE / mini class).
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

const START = 2000;
// Alice's maximum: digits found nowhere else on the pages involved, so any sign of it on Bob's side is the leak.
const ALICE_MAX = 3737;
const BOB_BID = 2500;
// Bob's bid is his own maximum: Alice's earlier, higher maximum answers it with one increment (D6, ADR 0055).
const PRICE_AFTER_BOB = minimumNextBid(START, BOB_BID);
// Alice raises only her maximum while she leads (ADR 0060): the price stays. Digits found nowhere else, as above.
const ALICE_RAISED = 4848;
// Bob then bids the minimum with a maximum above hers: he leads at her maximum plus one increment (ADR 0055).
const BOB_MAX = 6161;
const BOB_SECOND = minimumNextBid(START, PRICE_AFTER_BOB);
const PRICE_AFTER_BOB_LEADS = minimumNextBid(START, ALICE_RAISED);

const bidHistory = (page: Page) => page.locator('section.bid-history');
const historyRow = (page: Page, bidder: string, amount: number) =>
  bidHistory(page).locator('li').filter({ hasText: bidder }).filter({ hasText: formatDollars(amount) });
// The auto badge's title; screen readers get the same words (AutoBidBadge).
const AUTO_TITLE = 'Placed automatically for a maximum';
const outcome = (page: Page) => page.getByTestId('bid-outcome');
const maxField = (page: Page) => page.getByLabel('Bid up to');
const raiseForm = (page: Page) => page.getByRole('form', { name: 'Raise your maximum' });
const myRow = (page: Page, title: string, amount: number) =>
  page.getByTestId('my-bid-row').filter({ hasText: title }).filter({ has: page.locator('.my-bid-amount', { hasText: new RegExp(`^\\${formatDollars(amount)}$`) }) });
const badges = async (page: Page, title: string, amount: number) => (await myRow(page, title, amount).getByTestId('my-bid-badge').allInnerTexts()).map((t) => t.split('(')[0].trim());

/** Screenshots the page at desktop width and at 375 px, where nothing may scroll sideways. */
async function snapBothWidths(page: Page, name: string): Promise<void> {
  await snap(page, name);
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/**
 * Everything the server sends a page (API answers and live-feed frames), to prove a value never reached it even where
 * the page would not show it.
 */
function recordServerText(page: Page): () => string[] {
  const seen: string[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/api/')) return;
    response.text().then(
      (body) => seen.push(body),
      () => undefined,
    );
  });
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => seen.push(String(payload))));
  return () => seen;
}

/** The paths of the API requests a page makes from now on. */
function recordApiPaths(page: Page): () => string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/')) paths.push(path);
  });
  return () => paths;
}

/** True when JSON text holds the number as a value (ids and times may hold the same digits inside strings). */
const holdsNumber = (json: string, value: number) => new RegExp(`[:\\[,]\\s*${value}\\s*[,}\\]]`).test(json);

describe('proxy bidding in two browsers (ADR 0055)', () => {
  let browser: Browser;
  const pages: Page[] = [];
  const open = async (account: ApiAccount) => {
    const page = await loggedInPage(browser, account, DESKTOP);
    pages.push(page);
    return page;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.context().close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  // One journey across two browsers: a maximum, the answer to it, raising it (ADR 0060), being passed, and My Bids from
  // each side. Twenty-odd screenshots at two widths take most of its time, hence its own timeout.
  it('a maximum set in one browser outbids a lower bid from another at once and never shows there; the leader raises it; My Bids tells each side where it stands', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('proxyseller');
    const alice = await registerAccount('proxyalice');
    const bob = await registerAccount('proxybob');
    const carol = await registerAccount('proxycarol');
    const listing = await openSale(seller, { title: `Proxy kite blog ${tag}`, listing_type: 'auction', auction_type: 'auto', starting_price: String(START) });

    // Alice sets a maximum on the automatic auction; the field explains itself and refuses a maximum below the bid.
    const alicePage = await open(alice);
    await alicePage.goto(`${baseUrl()}/listing/${listing.id}`);
    await alicePage.getByText(`Minimum bid: ${formatDollars(START)}`).waitFor();
    await alicePage.getByText('We bid for you only as much as needed to keep you in the lead, up to this amount; nobody else sees it.').waitFor();
    await snapBothWidths(alicePage, 'proxy-bid-form-empty');
    await alicePage.getByLabel('Your bid').fill(String(START));
    await maxField(alicePage).fill(String(START - 1));
    await alicePage.getByRole('button', { name: 'Place Bid' }).click();
    await alicePage.getByText('Your maximum bid must be at least your bid').waitFor();
    expect(await maxField(alicePage).getAttribute('aria-invalid')).toBe('true');
    await snapBothWidths(alicePage, 'proxy-bid-max-error');

    await maxField(alicePage).fill(String(ALICE_MAX));
    await alicePage.getByRole('button', { name: 'Place Bid' }).click();
    await outcome(alicePage).getByText(`You lead; we'll bid for you up to ${formatDollars(ALICE_MAX)}.`).waitFor();
    // One bidder: the price stays at the starting price, however high the maximum.
    await alicePage.getByTestId('panel-price').getByText(formatDollars(START), { exact: true }).waitFor();
    await waitForLiveFeed(alicePage, listing.id);
    await snapBothWidths(alicePage, 'proxy-bid-leading');

    // Bob, in another browser, bids below Alice's maximum and learns at once that it was not enough.
    const bobPage = await open(bob);
    const bobReceived = recordServerText(bobPage);
    await bobPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await bobPage.getByText(`Minimum bid: ${formatDollars(minimumNextBid(START, START))}`).waitFor();
    await bobPage.getByLabel('Your bid').fill(String(BOB_BID));
    await bobPage.getByRole('button', { name: 'Place Bid' }).click();
    await outcome(bobPage).getByText(`Outbid at once by another bidder's earlier maximum. The current bid is now ${formatDollars(PRICE_AFTER_BOB)}.`).waitFor();
    expect(await outcome(bobPage).getAttribute('role')).toBe('alert');
    await bobPage.getByTestId('panel-price').getByText(formatDollars(PRICE_AFTER_BOB), { exact: true }).waitFor();
    await bobPage.getByText(`Minimum bid: ${formatDollars(minimumNextBid(START, PRICE_AFTER_BOB))}`).waitFor();
    // The history shows Bob's bid and the answer placed for Alice's maximum, marked automatic.
    await historyRow(bobPage, bob.username, BOB_BID).waitFor();
    const answer = historyRow(bobPage, alice.username, PRICE_AFTER_BOB);
    await answer.getByTitle(AUTO_TITLE).waitFor();
    expect(await historyRow(bobPage, bob.username, BOB_BID).getByTitle(AUTO_TITLE).count()).toBe(0);
    await snapBothWidths(bobPage, 'proxy-bid-outbid-at-once');

    // Alice's maximum is nowhere on Bob's page, in its history, nor in anything the server sent it.
    const shown = formatDollars(ALICE_MAX);
    expect(await bobPage.locator('body').innerText()).not.toContain(shown);
    expect(await bobPage.locator('body').innerText()).not.toContain(String(ALICE_MAX));
    expect(await bidHistory(bobPage).innerText()).not.toContain(shown);
    expect(await bobPage.content()).not.toContain(shown);
    expect(bobReceived().length).toBeGreaterThan(0);
    expect(bobReceived().filter((text) => holdsNumber(text, ALICE_MAX))).toEqual([]);

    // Alice's page follows live: still leading at the new price, the answer marked automatic.
    await alicePage.getByTestId('panel-price').getByText(formatDollars(PRICE_AFTER_BOB), { exact: true }).waitFor();
    await historyRow(alicePage, alice.username, PRICE_AFTER_BOB).getByTitle(AUTO_TITLE).waitFor();

    // Alice leads with a maximum: the form shows it to her and offers to raise it, not to bid against herself.
    await alicePage.getByTestId('leading-note').getByText(formatDollars(ALICE_MAX)).waitFor();
    expect(await alicePage.getByTestId('leading-note').innerText()).toContain("You're the highest bidder. Your maximum: $3,737 (only you see it)");
    expect(await alicePage.getByRole('button', { name: 'Place Bid' }).count()).toBe(0);
    const raiseField = raiseForm(alicePage).getByLabel('Raise your maximum');
    await raiseField.fill(String(ALICE_MAX));
    await raiseForm(alicePage).getByRole('button', { name: 'Raise maximum' }).click();
    await raiseForm(alicePage).getByText(`Your maximum bid is already ${shown}: enter a higher maximum to raise it`).waitFor();
    expect(await raiseField.getAttribute('aria-invalid')).toBe('true');
    await snapBothWidths(alicePage, 'proxy-raise-max-error');
    await raiseField.fill(String(ALICE_RAISED));
    await raiseForm(alicePage).getByRole('button', { name: 'Raise maximum' }).click();
    await outcome(alicePage).getByText(`Your maximum bid was raised to ${formatDollars(ALICE_RAISED)}.`).waitFor();
    await alicePage.getByTestId('my-maximum').getByText(formatDollars(ALICE_RAISED)).waitFor();
    // Raising a maximum bids nothing: the price and the history stay.
    await alicePage.getByTestId('panel-price').getByText(formatDollars(PRICE_AFTER_BOB), { exact: true }).waitFor();
    expect(await bidHistory(alicePage).locator('li').count()).toBe(3);
    await snapBothWidths(alicePage, 'proxy-raise-max-done');

    // My Bids: Alice leads, so her newest row says Winning and her first bid says Raised, never Outbid; her maximum
    // shows once. Bob sees he is outbid, and no maximum.
    await alicePage.goto(`${baseUrl()}/dashboard?tab=bids`);
    const aliceRows = alicePage.getByTestId('my-bid-row');
    await aliceRows.filter({ has: alicePage.getByTitle('Placed automatically for your maximum') }).getByText('Winning', { exact: true }).waitFor();
    expect(await badges(alicePage, listing.title, PRICE_AFTER_BOB)).toEqual(['Winning']);
    expect(await badges(alicePage, listing.title, START)).toEqual(['Raised']);
    expect(await alicePage.locator('body').innerText()).not.toContain('Outbid');
    expect(await aliceRows.getByText(`Your maximum: ${formatDollars(ALICE_RAISED)}`).count()).toBe(1);
    await snapBothWidths(alicePage, 'proxy-bid-my-bids-leading');

    await bobPage.goto(`${baseUrl()}/dashboard?tab=bids`);
    const bobRow = bobPage.getByTestId('my-bid-row').filter({ hasText: listing.title });
    await bobRow.getByText('Outbid', { exact: true }).waitFor();
    await bobPage.waitForLoadState('networkidle');
    expect(await bobPage.locator('body').innerText()).not.toContain(shown);
    expect(await bobPage.locator('body').innerText()).not.toContain('Your maximum');
    expect(bobReceived().filter((text) => holdsNumber(text, ALICE_MAX) || holdsNumber(text, ALICE_RAISED))).toEqual([]);
    await snapBothWidths(bobPage, 'proxy-bid-my-bids-outbid');

    // Bob comes back with a higher maximum: he leads at Alice's maximum plus one increment, and Alice's open page
    // turns back into the bid form at once, telling her (only her) that her maximum was passed.
    await alicePage.goto(`${baseUrl()}/listing/${listing.id}`);
    await raiseForm(alicePage).waitFor();
    await waitForLiveFeed(alicePage, listing.id);
    const aliceReceived = recordServerText(alicePage);
    const aliceAsked = recordApiPaths(alicePage);
    // Carol only watches: with no stake, a price change must not make her page ask anything of her standing (ADR 0060).
    const carolPage = await open(carol);
    const carolAsked = recordApiPaths(carolPage);
    await carolPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await carolPage.getByText(`Minimum bid: ${formatDollars(minimumNextBid(START, PRICE_AFTER_BOB))}`).waitFor();
    await waitForLiveFeed(carolPage, listing.id);
    await bobPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await bobPage.getByLabel('Your bid').fill(String(BOB_SECOND));
    await maxField(bobPage).fill(String(BOB_MAX));
    await bobPage.getByRole('button', { name: 'Place Bid' }).click();
    await outcome(bobPage).getByText(`You lead; we'll bid for you up to ${formatDollars(BOB_MAX)}.`).waitFor();
    await raiseForm(bobPage).getByTestId('my-maximum').getByText(formatDollars(BOB_MAX)).waitFor();
    await bobPage.getByTestId('panel-price').getByText(formatDollars(PRICE_AFTER_BOB_LEADS), { exact: true }).waitFor();
    await alicePage.getByTestId('maximum-passed').getByText(`Your maximum of ${formatDollars(ALICE_RAISED)} was passed (only you see it).`).waitFor();
    await alicePage.getByText(`Minimum bid: ${formatDollars(minimumNextBid(START, PRICE_AFTER_BOB_LEADS))}`).waitFor();
    expect(await raiseForm(alicePage).count()).toBe(0);
    // Alice (a stake) asked her standing again on her listing page, never the whole My Bids list. Carol's page took the
    // new price live and, once settled, had asked her standing only once, on opening, and My Bids never.
    const standingPath = `/api/listings/${listing.id}/my-standing`;
    expect(aliceAsked().filter((path) => path === standingPath).length).toBeGreaterThanOrEqual(1);
    expect(aliceAsked().filter((path) => path === '/api/user/bids')).toEqual([]);
    await carolPage.getByTestId('panel-price').getByText(formatDollars(PRICE_AFTER_BOB_LEADS), { exact: true }).waitFor();
    await carolPage.waitForLoadState('networkidle');
    expect(carolAsked().filter((path) => path === standingPath || path === '/api/user/bids')).toEqual([standingPath]);
    await snapBothWidths(alicePage, 'proxy-max-passed');
    await snapBothWidths(bobPage, 'proxy-raise-max-leading');
    expect(await alicePage.locator('body').innerText()).not.toContain(formatDollars(BOB_MAX));
    expect(aliceReceived().filter((text) => holdsNumber(text, BOB_MAX))).toEqual([]);

    // My Bids from each side: one state per listing, on the newest row; the older own rows are Raised.
    await bobPage.goto(`${baseUrl()}/dashboard?tab=bids`);
    await myRow(bobPage, listing.title, PRICE_AFTER_BOB_LEADS).getByText('Winning', { exact: true }).waitFor();
    expect(await badges(bobPage, listing.title, BOB_SECOND)).toEqual(['Raised']);
    expect(await badges(bobPage, listing.title, BOB_BID)).toEqual(['Raised']);
    expect(await bobPage.locator('body').innerText()).not.toContain('Outbid');
    await snapBothWidths(bobPage, 'proxy-my-bids-retaken');
    await alicePage.goto(`${baseUrl()}/dashboard?tab=bids`);
    await myRow(alicePage, listing.title, PRICE_AFTER_BOB).getByText('Outbid', { exact: true }).waitFor();
    expect(await badges(alicePage, listing.title, START)).toEqual(['Raised']);
    expect(await alicePage.locator('body').innerText()).not.toContain(formatDollars(BOB_MAX));
    await snapBothWidths(alicePage, 'proxy-my-bids-passed');
  }, 180_000);
});
