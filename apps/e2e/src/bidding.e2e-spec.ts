import { formatDollars } from '@market/domain';
import { eventually } from '@market/server-kit/testing';
import { apiCall, approveListing, createListingViaApi, registerAccount } from './support/api';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAs } from './support/journey';

describe('bidding on a listing', () => {
  const currentPage = freshPagePerTest();

  it('a buyer bids the minimum, is refused below it, and sees the price and history move', async () => {
    const page = currentPage();
    const seller = await registerAccount('bidseller');
    const buyer = await registerAccount('bidbuyer');
    const listing = await createListingViaApi(seller.token, { title: 'Heron watching blog for sale', starting_price: '2000' });
    await approveListing(listing.id);
    // The bidding service learns of the auction from an event: wait until it answers with the rules, not 404.
    await eventually(async () => expect((await apiCall('POST', '/bids', { listing_id: listing.id, amount: 1 }, buyer.token)).status).not.toBe(404), 15_000);

    await logInAs(page, buyer.username, buyer.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    await page.getByText(`Minimum bid: ${formatDollars(2000)}`).waitFor();
    await page.getByText('No bids yet. Be the first to bid!').waitFor();

    await page.getByLabel('Your bid').fill('1999');
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await page.getByText('Bid must be at least $2,000').first().waitFor();

    await page.getByLabel('Your bid').fill('2000');
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await page.getByText('Bid placed successfully!').waitFor();
    await page.getByText(`Minimum bid: ${formatDollars(2050)}`).waitFor();
    const history = page.getByRole('region', { name: 'Bid history' }).or(page.locator('section', { hasText: 'Bid history' })).first();
    await history.getByText(buyer.username).waitFor();
    await history.getByText('$2,000').waitFor();
    await snap(page, 'bidding-after-bid');

    // The seller cannot bid on their own listing: the API says why.
    expect((await apiCall('POST', '/bids', { listing_id: listing.id, amount: 5000 }, seller.token)).body).toMatchObject({ detail: 'You cannot bid on your own listing' });
  });
});
