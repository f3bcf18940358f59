import { eventually } from '@market/server-kit/testing';
import { apiCall, approveListing, createListingViaApi, linkInEmail, registerAccount } from './support/api';
import { baseUrl, snap } from './support/browser';
import { freshPagePerTest, logInAs } from './support/journey';

describe('verifying an email before bidding (ADR 0037)', () => {
  const currentPage = freshPagePerTest();

  it('asks an unverified member to verify before bidding; they resend the link, verify, and bid', async () => {
    const page = currentPage();
    const seller = await registerAccount('vbseller');
    const buyer = await registerAccount('vbbuyer', { verified: false });
    const listing = await createListingViaApi(seller.token, { title: 'Kestrel photography blog for sale', starting_price: '3000' });
    await approveListing(listing.id);
    // The bidding service learns of the auction from an event: until then a bid is 404; after, the unverified buyer's is a 403.
    await eventually(async () => {
      const refused = await apiCall<{ detail: string }>('POST', '/bids', { listing_id: listing.id, amount: 3000 }, buyer.token);
      expect(refused).toEqual({ status: 403, body: expect.objectContaining({ detail: 'Verify your email address to bid. We can send the link again from your profile.' }) });
    }, 15_000);

    // The page says why before they try, in place of the bid form.
    await logInAs(page, buyer.username, buyer.password);
    await page.waitForURL(`${baseUrl()}/`);
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    const notice = page.getByTestId('verify-email-notice');
    await notice.getByText('Verify your email address to bid.').waitFor();
    expect(await page.getByLabel('Your bid').count()).toBe(0);
    await snap(page, 'verify-before-bidding-notice');

    // They ask for the link again: a second email arrives, and its link (the first one is void now) verifies them.
    const first = await linkInEmail(buyer.email, 'verify_email');
    await notice.getByRole('button', { name: 'Send the verification link again' }).click();
    await notice.getByText('Verification email sent').waitFor();
    const link = await linkInEmail(buyer.email, 'verify_email', first);
    await page.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl()));
    await page.getByText('Email verified successfully!').waitFor();

    // Back on the listing, the bid form is there and the bid goes through.
    await page.goto(`${baseUrl()}/listing/${listing.id}`);
    await page.getByLabel('Your bid').fill('3000');
    expect(await page.getByTestId('verify-email-notice').count()).toBe(0);
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await page.getByText('Bid placed successfully!').waitFor();
    await snap(page, 'verify-before-bidding-bid-placed');
  });
});
