import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { formatDollars } from '@market/domain';
import { apiCall, registerAccount, type ApiAccount } from './support/api';
import { baseUrl, launchBrowser, snap } from './support/browser';
import { sql, waitForRow } from './support/database';
import {
  bidViaApi,
  loggedInPage,
  markDocument,
  moveSaleEnd,
  openSale,
  sameDocument,
  sidewaysOverflow,
  waitForListingStatus,
  waitForLiveFeed,
} from './support/sales';

const PHONE = { width: 390, height: 844 };

const myBidRow = (page: Page, text: string) => page.getByTestId('my-bid-row').filter({ hasText: text });
/** A My Bids row by listing and the row's own amount (every row also shows the listing's current bid). */
const bidRowOf = (page: Page, title: string, amount: number) =>
  myBidRow(page, title).filter({ has: page.getByLabel('Bid amount', { exact: true }).getByText(formatDollars(amount), { exact: true }) });
const bidHistory = (page: Page) => page.locator('section.bid-history');
const soldNotice = (page: Page) => page.locator('.detail-sold').getByText('This website has been sold and is no longer available.');

/** Places a bid through the listing page's form and waits for the success message. */
async function bidThroughPage(page: Page, amount: number): Promise<void> {
  await page.getByLabel('Your bid').fill(String(amount));
  await page.getByRole('button', { name: 'Place Bid' }).click();
  await page.getByText('Bid placed successfully!').waitFor();
}

/** Opens My Bids and waits until it has loaded `count` rows. */
async function openMyBids(page: Page, count: number): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?tab=bids`);
  await page.getByRole('heading', { name: `My Bids (${count})` }).waitFor();
}

/** Screenshots My Bids at desktop width and at 390 px, where nothing may scroll sideways. */
async function snapBothWidths(page: Page, name: string): Promise<void> {
  await snap(page, name);
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await snap(page, `${name}-phone`);
  if (desktop) await page.setViewportSize(desktop);
}

describe('live bidding, the end of a sale and My Bids', () => {
  let browser: Browser;
  const pages: Page[] = [];
  // Each user gets their own browser context, closed after the test.
  const open = async (account: ApiAccount) => {
    const page = await loggedInPage(browser, account);
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

  it('a bid shows up on another viewer’s page without a reload, and a late bid extends the auction live', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('liveseller');
    const alice = await registerAccount('livealice');
    const bob = await registerAccount('livebob');
    const listing = await openSale(seller, { title: `Live kite blog ${tag}`, starting_price: '2000' });

    const alicePage = await open(alice);
    const bobPage = await open(bob);
    for (const page of [alicePage, bobPage]) {
      await page.goto(`${baseUrl()}/listing/${listing.id}`);
      await page.getByText(`Minimum bid: ${formatDollars(2000)}`).waitFor();
      await bidHistory(page).getByText('No bids yet. Be the first to bid!').waitFor();
      await waitForLiveFeed(page, listing.id);
      await markDocument(page);
    }

    // Alice bids through her page; Bob's page follows over the websocket.
    await bidThroughPage(alicePage, 2000);
    await bobPage.getByTestId('panel-price').getByText(formatDollars(2000), { exact: true }).waitFor();
    await bobPage.locator('.panel-price').getByText('Current bid').waitFor();
    await bobPage.locator('.panel-price').getByText('1 bid', { exact: true }).waitFor();
    await bidHistory(bobPage).getByText(alice.username).waitFor();
    await bidHistory(bobPage).getByText(formatDollars(2000)).waitFor();
    await bobPage.getByText(`Minimum bid: ${formatDollars(2050)}`).waitFor();
    expect(await sameDocument(bobPage)).toBe(true);
    expect(bobPage.url()).toBe(`${baseUrl()}/listing/${listing.id}`);
    await snap(bobPage, 'live-listing-after-other-bid');

    // Five minutes left: inside the 10-minute soft close (D9), so Bob's leading bid moves the end to now + 10 minutes.
    await moveSaleEnd(listing.id, '5 minutes');
    await bidThroughPage(bobPage, 2050);
    const extended = alicePage.getByTestId('auction-extended');
    await extended.waitFor();
    const newEnd = /^Auction extended: now ends (.+)$/.exec((await extended.textContent()) ?? '')?.[1];
    expect(newEnd).toBeTruthy();
    // The panel's end line follows the extension too (the reloaded listing carries the new end).
    await alicePage.getByTestId('auction-ends').getByText(`Ends ${newEnd}`, { exact: true }).waitFor();
    await alicePage.getByTestId('panel-price').getByText(formatDollars(2050), { exact: true }).waitFor();
    await bidHistory(alicePage).getByText(bob.username).waitFor();
    expect(await sameDocument(alicePage)).toBe(true);
    const [auction] = await sql<{ minutes_left: number }>(
      'SELECT EXTRACT(EPOCH FROM expires_at - now()) / 60 AS minutes_left FROM bidding.auctions WHERE listing_id = $1',
      [listing.id],
    );
    expect(Number(auction.minutes_left)).toBeGreaterThan(9);
    expect(Number(auction.minutes_left)).toBeLessThanOrEqual(10);
    await snap(alicePage, 'live-listing-auction-extended');
  });

  it('a seller accepts one of two bids from My Bids: the other is rejected, the listing is sold, the winner sees it', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('accseller');
    const early = await registerAccount('accearly');
    const winner = await registerAccount('accwinner');
    const title = `Orchid care shop ${tag}`;
    const listing = await openSale(seller, { title, starting_price: '3000' });
    await bidViaApi(early, listing.id, 3000);
    await bidViaApi(winner, listing.id, 3100);

    const sellerPage = await open(seller);
    await openMyBids(sellerPage, 2);
    for (const [buyer, amount] of [
      [early, 3000],
      [winner, 3100],
    ] as const) {
      const row = myBidRow(sellerPage, buyer.username);
      await row.getByRole('button', { name: `Accept bid of ${formatDollars(amount)} from ${buyer.username}` }).waitFor();
      await row.getByRole('button', { name: `Reject bid of ${formatDollars(amount)} from ${buyer.username}` }).waitFor();
      expect(await row.getByText('Seller', { exact: true }).count()).toBe(1);
    }
    await sellerPage.getByLabel('Bid counts').getByText('Total: 2').waitFor();
    await snapBothWidths(sellerPage, 'my-bids-seller-pending');

    let confirmText = '';
    sellerPage.once('dialog', (dialog) => {
      confirmText = dialog.message();
      void dialog.accept();
    });
    await myBidRow(sellerPage, winner.username).getByRole('button', { name: /^Accept / }).click();
    await myBidRow(sellerPage, winner.username).getByText('Accepted', { exact: true }).waitFor();
    await myBidRow(sellerPage, early.username).getByText('Rejected', { exact: true }).waitFor();
    await myBidRow(sellerPage, winner.username).getByText('Bid accepted: the listing is sold').waitFor();
    expect(confirmText).toContain(`Accept the bid of ${formatDollars(3100)} from ${winner.username} on "${title}"?`);
    expect(await sellerPage.getByRole('button', { name: /^(Accept|Reject) / }).count()).toBe(0);
    await snapBothWidths(sellerPage, 'my-bids-seller-decided');

    await waitForListingStatus(listing.id, 'sold');
    await sellerPage.goto(`${baseUrl()}/listing/${listing.id}`);
    await soldNotice(sellerPage).waitFor();
    await sellerPage.locator('.detail-badges').getByText('SOLD', { exact: true }).waitFor();

    // The accepted buyer sees the win; the other buyer sees the rejection.
    const winnerPage = await open(winner);
    await openMyBids(winnerPage, 1);
    const won = myBidRow(winnerPage, title);
    await won.getByText('Winning', { exact: true }).waitFor();
    await won.getByText('Accepted', { exact: true }).waitFor();
    expect(await won.getByRole('link', { name: 'View Listing' }).getAttribute('href')).toBe(`/listing/${listing.id}`);
    await snapBothWidths(winnerPage, 'my-bids-buyer-won');
    const earlyBids = await apiCall<{ bids: Array<{ status: string; is_winning: boolean }> }>('GET', '/user/bids', undefined, early.token);
    expect(earlyBids.body.bids).toEqual([expect.objectContaining({ status: 'rejected', is_winning: false })]);
  });

  it('an auction ends by itself at its end time: the highest bidder sees SOLD and their bid accepted', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('endseller');
    const winner = await registerAccount('endwinner');
    const other = await registerAccount('endother');
    const title = `Tide tables site ${tag}`;
    const listing = await openSale(seller, { title, starting_price: '1500' });
    await bidViaApi(winner, listing.id, 1500);
    await bidViaApi(other, listing.id, 1550);
    const winningBid = await bidViaApi(winner, listing.id, 1600);

    const page = await open(winner);
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    await page.getByTestId('panel-price').getByText(formatDollars(1600), { exact: true }).waitFor();
    await waitForLiveFeed(page, listing.id);
    await markDocument(page);

    // The sale closes within a sweep (1 s) of its end; listing_sold then turns the open page SOLD without a reload.
    await moveSaleEnd(listing.id, '3 seconds');
    await soldNotice(page).waitFor({ timeout: 12_000 });
    expect(await sameDocument(page)).toBe(true);
    await page.locator('.detail-badges').getByText('SOLD', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Place Bid' }).count()).toBe(0);
    await snap(page, 'live-listing-sold-at-end');

    const closed = await waitForRow<{ winning_bid_id: string | null; closed_at: Date | null }>(
      'SELECT winning_bid_id, closed_at FROM bidding.auctions WHERE listing_id = $1',
      [listing.id],
      (row) => row.closed_at !== null,
      'the auction to close',
    );
    expect(closed.winning_bid_id).toBe(winningBid);

    await openMyBids(page, 2);
    expect(await myBidRow(page, title).count()).toBe(2);
    const accepted = bidRowOf(page, title, 1600);
    await accepted.getByText('Winning', { exact: true }).waitFor();
    await accepted.getByText('Accepted', { exact: true }).waitFor();
    // The winner's own earlier bid was superseded by their later one: it reads Raised, not Rejected (ADR 0060).
    await bidRowOf(page, title, 1500).getByTestId('my-bid-badge').filter({ hasText: /^Raised \(/ }).waitFor();
    expect(await bidRowOf(page, title, 1500).getByText('Winning', { exact: true }).count()).toBe(0);
    expect(await bidRowOf(page, title, 1500).getByText('Rejected', { exact: true }).count()).toBe(0);
    const otherBids = await apiCall<{ bids: Array<{ status: string }> }>('GET', '/user/bids', undefined, other.token);
    expect(otherBids.body.bids.map((bid) => bid.status)).toEqual(['rejected']);
  });

  it('a buyer makes an offer on a fixed-price listing from its page; the seller rejects it in My Bids', async () => {
    const tag = randomBytes(3).toString('hex');
    const seller = await registerAccount('offseller');
    const buyer = await registerAccount('offbuyer');
    const title = `Vintage radio forum ${tag}`;
    const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: '12000' });

    // A new account has no bids yet.
    const buyerPage = await open(buyer);
    await openMyBids(buyerPage, 0);
    await buyerPage.getByText("You haven't placed any bids yet.").waitFor();
    expect(await buyerPage.getByRole('link', { name: 'Browse Websites', exact: true }).getAttribute('href')).toBe('/browse');
    await snapBothWidths(buyerPage, 'my-bids-empty');

    await buyerPage.goto(`${baseUrl()}/listing/${listing.id}`);
    const form = buyerPage.getByRole('form', { name: 'Make an offer' });
    await form.getByText(`Offer up to ${formatDollars(12000)}.`).waitFor();
    await form.getByLabel('Your offer').fill('12500');
    await form.getByRole('button', { name: 'Make an offer' }).click();
    await form.getByText(`Offer cannot be above the asking price of ${formatDollars(12000)}`).waitFor();
    await form.getByLabel('Your offer').fill('10500');
    await snap(buyerPage, 'listing-offer-form');
    await form.getByRole('button', { name: 'Make an offer' }).click();
    await form.getByText('✅ Offer sent to the seller').waitFor();
    // Offers are private and move no price: the asking price stays.
    await buyerPage.getByTestId('panel-price').getByText(formatDollars(12000), { exact: true }).waitFor();
    await snap(buyerPage, 'listing-offer-sent');

    await openMyBids(buyerPage, 1);
    const pending = myBidRow(buyerPage, title);
    await pending.getByText('Offer', { exact: true }).waitFor();
    await pending.getByText('Offer pending', { exact: true }).waitFor();
    expect(await pending.getByText('Outbid', { exact: true }).count()).toBe(0);
    await snapBothWidths(buyerPage, 'my-bids-buyer-offer-pending');

    const sellerPage = await open(seller);
    await openMyBids(sellerPage, 1);
    const offerRow = myBidRow(sellerPage, buyer.username);
    await offerRow.getByText('Offer', { exact: true }).waitFor();
    await offerRow.getByText(formatDollars(10500)).waitFor();
    await snapBothWidths(sellerPage, 'my-bids-seller-offer');
    // Reject needs no confirmation (decision 0016).
    const dialogs: string[] = [];
    sellerPage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await offerRow.getByRole('button', { name: `Reject offer of ${formatDollars(10500)} from ${buyer.username}` }).click();
    await offerRow.getByText('Rejected', { exact: true }).waitFor();
    expect(dialogs).toEqual([]);
    expect(await offerRow.getByRole('button', { name: /^Accept / }).count()).toBe(0);

    await buyerPage.reload();
    const rejected = myBidRow(buyerPage, title);
    await rejected.getByText('Rejected', { exact: true }).waitFor();
    expect(await rejected.getByText('Offer pending', { exact: true }).count()).toBe(0);
    await snap(buyerPage, 'my-bids-buyer-offer-rejected');
    // A rejected offer does not end the sale.
    expect((await apiCall<{ status: string }>('GET', `/listings/${listing.id}`)).body.status).toBe('active');
  });
});
