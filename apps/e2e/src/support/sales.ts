import type { ListingDto } from '@market/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, approveListing, createListingViaApi, type ApiAccount } from './api';
import { baseUrl } from './browser';
import { sql, waitForRow } from './database';
import { logInAs } from './journey';

/**
 * Creates and approves a listing, then waits until the bidding service has opened its sale (it learns of listings
 * from events, so a bid placed earlier would be a 404).
 */
export async function openSale(seller: ApiAccount, fields: Record<string, string>): Promise<ListingDto> {
  const listing = await createListingViaApi(seller.token, fields);
  await approveListing(listing.id);
  await waitForRow<{ status: string }>('SELECT status FROM bidding.auctions WHERE listing_id = $1', [listing.id], (row) => row.status === 'active', `the sale of ${listing.id} to open`);
  return listing;
}

/** POST /api/bids as a buyer (a bid on an auction, an offer on a fixed price); returns the new bid's id. */
export async function bidViaApi(buyer: ApiAccount, listingId: string, amount: number): Promise<string> {
  const placed = await apiCall<{ bid: { id: string } }>('POST', '/bids', { listing_id: listingId, amount }, buyer.token);
  if (placed.status !== 201) throw new Error(`bid ${amount} by ${buyer.username}: ${placed.status} ${JSON.stringify(placed.body)}`);
  return placed.body.bid.id;
}

/**
 * Moves a sale's end (what time would do), e.g. `'3 seconds'`: in the bidding service's table, which decides, and in
 * the listings service's copy, which the page shows, so the two agree as they would had the time passed.
 */
export async function moveSaleEnd(listingId: string, fromNow: string): Promise<void> {
  const moved = await sql(
    `WITH sale AS (UPDATE bidding.auctions SET expires_at = now() + $2::interval WHERE listing_id = $1 RETURNING listing_id, expires_at)
     UPDATE listings.listings l SET expires_at = sale.expires_at FROM sale WHERE l.id = sale.listing_id RETURNING l.id`,
    [listingId, fromNow],
  );
  if (moved.length !== 1) throw new Error(`no sale for ${listingId} in both schemas`);
}

/** Waits until the listings service shows a listing in a status (it follows the bidding service's events). */
export async function waitForListingStatus(listingId: string, status: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const { body } = await apiCall<{ status?: string }>('GET', `/listings/${listingId}`);
    last = body?.status;
    if (last === status) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`listing ${listingId} is ${String(last)}, not ${status}`);
}

/**
 * A browser context that records the page's websockets (window.__liveSockets), so a journey can wait until the live
 * feed is open before causing the event it expects to arrive over it.
 */
export async function recordingContext(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(() => {
    const Native = window.WebSocket;
    const sockets: WebSocket[] = [];
    (window as unknown as { __liveSockets: WebSocket[] }).__liveSockets = sockets;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    };
  });
  return context;
}

/** A page in a recording context, logged in through the form as `account`. */
export async function loggedInPage(browser: Browser, account: ApiAccount, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await recordingContext(browser, viewport)).newPage();
  await logInAs(page, account.username, account.password);
  await page.waitForURL(`${baseUrl()}/`);
  return page;
}

/** Waits until the page holds an open socket on the listing's live feed. */
export async function waitForLiveFeed(page: Page, listingId: string, timeoutMs = 10_000): Promise<void> {
  await page.waitForFunction(
    (id) => ((window as unknown as { __liveSockets?: WebSocket[] }).__liveSockets ?? []).some((s) => s.readyState === 1 && s.url.endsWith(`/ws/listings/${id}`)),
    listingId,
    { timeout: timeoutMs },
  );
}

/** Marks the current document; `sameDocument` later tells whether the page was reloaded or navigated away since. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __journeyMark?: string }).__journeyMark = 'still here'));
}

/** True while the document marked by markDocument is still the one shown (no reload, no full navigation). */
export function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __journeyMark?: string }).__journeyMark === 'still here');
}

/** The page's horizontal overflow in CSS pixels (0 or less: nothing scrolls sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
