import type { BuyNowResponse } from '@market/contracts';
import { BUY_NOW_FAILED, buyNowOutcome, buyNowQuestion, invoicePayPath, PAYMENT_SETUP_FAILED, performBuyNow, safeCheckoutUrl } from './buy-now';

const ORIGIN = 'https://market.example.com';
const plain: BuyNowResponse = {
  message: 'Purchase successful!',
  redirect_to_payment: false,
  payment: null,
  fallback_payment_required: false,
  invoice: null,
  payment_setup_failed: false,
};
const invoice = { id: 'inv-1', invoice_number: 'INV-2026-000042' };

describe('buyNowOutcome (SPEC §4)', () => {
  it('goes to the checkout when the server set one up', () => {
    const answer = { ...plain, redirect_to_payment: true, payment: { checkout_url: 'https://pay.example.com/c/abc' }, invoice };
    expect(buyNowOutcome(answer, ORIGIN)).toEqual({ kind: 'redirect', url: 'https://pay.example.com/c/abc' });
    const relative = { ...answer, payment: { checkout_url: '/api/checkout/abc' } };
    expect(buyNowOutcome(relative, ORIGIN)).toEqual({ kind: 'redirect', url: 'https://market.example.com/api/checkout/abc' });
  });

  it('sends the buyer to pay the invoice from the dashboard on the fallback', () => {
    const answer = { ...plain, message: 'Purchase successful! Please pay your invoice.', fallback_payment_required: true, invoice };
    expect(buyNowOutcome(answer, ORIGIN)).toEqual({
      kind: 'invoice',
      text: 'Purchase successful! Please pay your invoice.',
      to: '/dashboard?tab=invoices&pay=inv-1',
    });
  });

  it('says the payment setup failed, word for word', () => {
    expect(buyNowOutcome({ ...plain, payment_setup_failed: true, invoice }, ORIGIN)).toEqual({ kind: 'setup_failed', text: PAYMENT_SETUP_FAILED });
    expect(PAYMENT_SETUP_FAILED).toBe('Purchase successful, but payment setup failed. Please check Dashboard → Invoices or contact support.');
  });

  it('never follows a checkout address that is not http(s), and calls that a failed setup', () => {
    const answer = { ...plain, redirect_to_payment: true, payment: { checkout_url: 'javascript:alert(1)' } };
    expect(buyNowOutcome(answer, ORIGIN)).toEqual({ kind: 'setup_failed', text: PAYMENT_SETUP_FAILED });
    expect(buyNowOutcome({ ...answer, payment: null }, ORIGIN).kind).toBe('setup_failed');
    expect(safeCheckoutUrl('data:text/html,hi', ORIGIN)).toBeNull();
  });

  it('shows plain success otherwise, with a link to the invoice when there is one', () => {
    expect(buyNowOutcome(plain, ORIGIN)).toEqual({ kind: 'success', text: 'Purchase successful!', to: null });
    expect(buyNowOutcome({ ...plain, invoice }, ORIGIN)).toEqual({ kind: 'success', text: 'Purchase successful!', to: invoicePayPath('inv-1') });
  });
});

describe('performBuyNow', () => {
  it('shows the server’s detail on a refusal, else the SPEC §8 text', async () => {
    const refused = await performBuyNow({
      origin: ORIGIN,
      send: async () => {
        throw { status: 400, data: { detail: 'This listing has already been sold' } };
      },
    });
    expect(refused).toEqual({ kind: 'error', text: 'This listing has already been sold' });
    const down = await performBuyNow({
      origin: ORIGIN,
      send: async () => {
        throw { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' };
      },
    });
    expect(down).toEqual({ kind: 'error', text: BUY_NOW_FAILED });
  });

  it('reads the answer of a purchase that went through', async () => {
    expect(await performBuyNow({ origin: ORIGIN, send: async () => ({ ...plain, fallback_payment_required: true, invoice }) })).toMatchObject({ kind: 'invoice' });
  });
});

describe('buyNowQuestion', () => {
  it('names the listing and the price', () => {
    expect(buyNowQuestion('Heron watching blog', 4500)).toBe('Buy "Heron watching blog" now for $4,500?');
  });
});
