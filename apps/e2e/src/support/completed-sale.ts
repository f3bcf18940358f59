import type { AdminPaymentIntentDto, BuyNowResponse, MySaleReviews } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { adminToken, apiCall, type ApiAccount } from './api';
import { openSale } from './sales';

/** A buy-now sale as a buyer makes it: the listing, the invoice id and the hosted checkout's session id. */
export async function buyNow(seller: ApiAccount, buyer: ApiAccount, title: string, price: number): Promise<{ listingId: string; invoiceId: string; sessionId: string }> {
  const listing = await openSale(seller, { title, listing_type: 'fixed', starting_price: String(price) });
  const bought = await apiCall<BuyNowResponse>('POST', `/listings/${listing.id}/buy-now`, undefined, buyer.token);
  if (bought.status !== 201 || !bought.body.invoice || !bought.body.payment) throw new Error(`buy-now ${title}: ${bought.status} ${JSON.stringify(bought.body)}`);
  const sessionId = new URL(bought.body.payment.checkout_url).pathname.split('/').pop() as string;
  return { listingId: listing.id, invoiceId: bought.body.invoice.id, sessionId };
}

/**
 * The buyer pays at the sandbox checkout with the card that succeeds, the seller sets up payouts (the sandbox's
 * onboarding) and the admin releases the funds: the payout goes out and the invoice is paid (D22).
 */
export async function payAndRelease(seller: ApiAccount, buyer: ApiAccount, invoiceId: string, sessionId: string): Promise<void> {
  const card = { card_number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' };
  const paid = await apiCall('POST', `/sandbox/checkout-sessions/${sessionId}/complete`, card, buyer.token);
  if (paid.status !== 201 && paid.status !== 200) throw new Error(`checkout: ${paid.status} ${JSON.stringify(paid.body)}`);
  const token = await adminToken();
  const intents = await apiCall<{ payment_intents: AdminPaymentIntentDto[] }>('GET', '/admin/payment-intents', undefined, token);
  const intent = intents.body.payment_intents.find((p) => p.invoice_id === invoiceId && p.status === 'requires_capture');
  if (!intent) throw new Error(`no held payment for invoice ${invoiceId}`);
  const link = await apiCall<{ url: string }>('POST', '/user/payout-account/onboarding', undefined, seller.token);
  const onboarded = await apiCall('POST', `/sandbox/payout-onboarding/${new URL(link.body.url).pathname.split('/').pop()}/complete`, {}, seller.token);
  if (onboarded.status !== 200) throw new Error(`onboarding: ${onboarded.status} ${JSON.stringify(onboarded.body)}`);
  const captured = await apiCall('POST', `/admin/payment-intents/${intent.id}/capture`, { amount_to_capture: null, reason: 'Domain transfer verified by admin' }, token);
  if (captured.status !== 201 && captured.status !== 200) throw new Error(`capture: ${captured.status} ${JSON.stringify(captured.body)}`);
}

/**
 * A sale paid out (D22) that both parties may review (D23): bought now, paid, released, and known to listings-service
 * (it learns of the payout from sale.completed, so the buyer's reviewable sales list it only a moment later).
 */
export async function completedSale(seller: ApiAccount, buyer: ApiAccount, title: string, price: number): Promise<{ listingId: string; invoiceId: string }> {
  const sale = await buyNow(seller, buyer, title, price);
  await payAndRelease(seller, buyer, sale.invoiceId, sale.sessionId);
  await eventually(async () => {
    const mine = await apiCall<MySaleReviews>('GET', '/user/reviews', undefined, buyer.token);
    expect(mine.body.sales?.find((s) => s.invoice_id === sale.invoiceId)?.can_review).toBe(true);
  }, 30_000);
  return { listingId: sale.listingId, invoiceId: sale.invoiceId };
}
