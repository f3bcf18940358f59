// Sales made through the gateway as users make them: a fixed-price listing bought now and paid with a test card.
import { eventually } from '@market/server-kit/testing';
import { bearer, post, signUp } from './start-stack';
import { createLiveListing } from './auctions';

/** The sandbox's card form as the browser sends it (4242: the funds are held). */
export const testCard = (client_secret: string, card_number = '4242 4242 4242 4242') => ({ client_secret, card_number, exp_month: 12, exp_year: 2099, cvc: '123' });

/** A buy-now of `listingId` by the buyer, retried until the listing's approval has reached bidding; answers the invoice id. */
export async function buyNow(baseUrl: string, listingId: string, buyerToken: string): Promise<string> {
  const bought = await eventually(async () => {
    const answer = await post(`${baseUrl}/api/listings/${listingId}/buy-now`, undefined, bearer(buyerToken));
    expect(answer.status).toBe(201);
    return answer;
  }, 15_000);
  return bought.body.invoice.id as string;
}

/** A paid sale: a fresh seller's fixed-price listing at `price`, bought now by a fresh buyer and paid with 4242 (held). */
export async function paidSale(baseUrl: string, adminToken: string, price = 3000) {
  const [seller, buyer] = [await signUp(baseUrl), await signUp(baseUrl)];
  const listing = await createLiveListing(baseUrl, seller.token, adminToken, { listing_type: 'fixed', starting_price: price });
  const invoiceId = await buyNow(baseUrl, listing.id, buyer.token);
  const created = await post(`${baseUrl}/api/invoices/${invoiceId}/create-payment`, { invoice_id: invoiceId }, bearer(buyer.token));
  const intentId = created.body.payment_intent_id as string;
  const held = await post(`${baseUrl}/api/sandbox/payment-intents/${intentId}/confirm`, testCard(created.body.client_secret), bearer(buyer.token));
  expect(held.body.payment_intent.status).toBe('requires_capture');
  return { seller, buyer, listingId: listing.id, invoiceId, intentId };
}
