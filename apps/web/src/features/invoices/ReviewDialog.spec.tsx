import type { InvoiceDto, ReviewDto, SaleReviewStateDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { renderStatic, visibleText } from '../../testing/static-render';
import { invoicesApi } from '../../api/invoices.api';
import { reviewsApi } from '../../api/reviews.api';
import { api } from '../../lib/api';
import { InvoicesTab } from './InvoicesTab';
import { ReviewDialog } from './ReviewDialog';
import { reviewCount, reviewStatusLine, reviewThanks, validateReview } from './review-form';

jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./invoices.css', () => ({}));
jest.mock('../../components/form/form-fields.css', () => ({}));
jest.mock('../../components/payments/payments.css', () => ({}));
jest.mock('../../components/reviews/reviews.css', () => ({}));

const INVOICE_ID = '5b0e8a8e-3c1f-4d7a-8f0e-2f6c1d9b7a11';
const OTHER_ID = '9a1d4c2e-7b3f-4e8a-9c0d-1e2f3a4b5c6d';
const NOW = new Date('2026-11-22T12:00:00Z');

const sale: SaleReviewStateDto = {
  invoice_id: INVOICE_ID,
  invoice_number: 'INV-2026-000042',
  website_title: 'Heron watching blog',
  role: 'buyer',
  other_party: { username: 'sam_seller', name: 'Sam Seller' },
  completed_at: '2026-11-20T12:00:00.000Z',
  closes_at: '2027-01-19T12:00:00.000Z',
  can_review: true,
  mine: null,
  theirs: null,
};

const review = (over: Partial<ReviewDto>): ReviewDto => ({
  id: '0c9d8e7f-6a5b-4c3d-9e1f-0a1b2c3d4e5f',
  stars: 5,
  text: 'Smooth sale, quick transfer.',
  author: { username: 'sam_seller', name: 'Sam Seller' },
  author_role: 'seller',
  website_title: 'Heron watching blog',
  reply: null,
  created_at: '2026-11-21T12:00:00.000Z',
  ...over,
});

const invoice: InvoiceDto = {
  id: INVOICE_ID,
  invoice_number: 'INV-2026-000042',
  sale_type: 'buy_now',
  role: 'buyer',
  listing_id: 'listing-1',
  website_title: 'Heron watching blog',
  website_url: 'https://heron.example.com',
  total_amount: 4500,
  status: 'paid',
  due_date: '2026-11-29T12:00:00Z',
  pay_by: null,
  created_at: '2026-11-10T11:00:00Z',
  paid_at: '2026-11-20T12:00:00Z',
  buyer: { id: 'u-ann', username: 'ann_buyer' },
  seller: { id: 'u-sam', username: 'sam_seller' },
  success_fee_percent: null,
  success_fee: null,
  payout: null,
  can_pay: false,
  can_mark_paid: false,
  test_mode: false,
  transfer: { started_at: null, received_at: null, verified_at: null },
  dispute: null,
  can_mark_transfer_started: false,
  can_confirm_received: false,
  can_dispute: false,
  cancel_reason: null,
  escrow: { captured_at: null, release_due_at: null, payout_status: null },
};

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWith(invoices: InvoiceDto[], sales: SaleReviewStateDto[]): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  await store.dispatch(invoicesApi.util.upsertQueryData('invoices', undefined, { invoices }));
  await store.dispatch(reviewsApi.util.upsertQueryData('mySaleReviews', undefined, { sales }));
  return store;
}

describe('validateReview: the contracts schema decides (D23)', () => {
  it('asks for stars when none are chosen and for at least 10 characters', () => {
    expect(validateReview(INVOICE_ID, { stars: 0, text: 'short' })).toEqual({ errors: { stars: 'Give 1 to 5 stars', text: 'At least 10 characters' } });
  });

  it('counts the text once trimmed, so spaces do not make it long enough', () => {
    expect(validateReview(INVOICE_ID, { stars: 4, text: '   too few        ' })).toEqual({ errors: { text: 'At least 10 characters' } });
  });

  it('refuses more than 1000 characters', () => {
    expect(validateReview(INVOICE_ID, { stars: 4, text: 'x'.repeat(1001) })).toEqual({ errors: { text: 'At most 1000 characters' } });
    expect(validateReview(INVOICE_ID, { stars: 4, text: 'x'.repeat(1000) })).toEqual({ request: { invoice_id: INVOICE_ID, stars: 4, text: 'x'.repeat(1000) } });
  });

  it('gives the request with the text trimmed when the draft is good', () => {
    expect(validateReview(INVOICE_ID, { stars: 5, text: '  Great seller, fast handover.  ' })).toEqual({
      request: { invoice_id: INVOICE_ID, stars: 5, text: 'Great seller, fast handover.' },
    });
  });

  it('counts characters as the rule does: code points of the trimmed text', () => {
    expect(reviewCount('  😀😀 ok  ')).toBe('5 / 1000');
  });
});

describe('what the row and the dialog say', () => {
  it('thanks the reviewer and says when the review will show', () => {
    expect(reviewThanks(sale)).toBe('Thanks — your review will appear when Sam Seller has written theirs, or on 19 Jan 2027 at the latest.');
  });

  it('says until when a sale may be reviewed, and that a written review waits for the other party', () => {
    expect(reviewStatusLine(sale, NOW)).toBe('You can review Sam Seller until 19 Jan 2027.');
    const waiting = { ...sale, can_review: false, mine: review({ author: { username: 'ann_buyer', name: null }, author_role: 'buyer' }) };
    expect(reviewStatusLine(waiting, NOW)).toBe('Your review shows once Sam Seller has written theirs, or on 19 Jan 2027.');
    expect(reviewStatusLine(waiting, new Date('2027-02-01T00:00:00Z'))).toBeNull();
    expect(reviewStatusLine({ ...waiting, theirs: review({}) }, NOW)).toBeNull();
  });

  it('shows the errors it was given beside their fields, and the counter', () => {
    const page = renderStatic(<ReviewDialog sale={sale} onClose={() => undefined} initialDraft={{ stars: 0, text: 'short' }} initialErrors={{ stars: 'Give 1 to 5 stars', text: 'At least 10 characters' }} />);
    expect(page).toContain('<small id="');
    expect(visibleText(page)).toContain('Give 1 to 5 stars');
    expect(visibleText(page)).toContain('At least 10 characters');
    expect(visibleText(page)).toContain('5 / 1000');
    expect(page).toMatch(/<textarea[^>]*aria-invalid="true"/);
  });
});

describe('Invoices: reviews of sales paid out', () => {
  it('offers "Leave a review" on a sale that may be reviewed, and only there', async () => {
    const unpaid = { ...invoice, id: OTHER_ID, invoice_number: 'INV-2026-000043', status: 'pending' as const, paid_at: null };
    const html = renderStatic(<InvoicesTab />, await storeWith([invoice, unpaid], [sale]), '/dashboard?tab=invoices');
    expect(html.match(/>Leave a review</g)).toHaveLength(1);
    expect(html).toContain('aria-label="Leave a review of Sam Seller for INV-2026-000042"');
    expect(html).not.toContain('role="dialog"');
  });

  it('opens the dialog for the invoice in ?review=, so a reload keeps it open', async () => {
    const html = renderStatic(<InvoicesTab />, await storeWith([invoice], [sale]), `/dashboard?tab=invoices&review=${INVOICE_ID}`);
    expect(html).toContain('role="dialog"');
    const page = visibleText(html);
    expect(page).toContain('Review Sam Seller');
    expect(page).toContain('How was buying from Sam Seller?');
    expect(page).toContain('Send review');
  });

  it('says why, in the dialog, when the linked sale can no longer be reviewed', async () => {
    const mine = review({ author: { username: 'ann_buyer', name: null }, author_role: 'buyer' });
    const done = { ...sale, can_review: false, mine };
    const page = visibleText(renderStatic(<InvoicesTab />, await storeWith([invoice], [done]), `/dashboard?tab=invoices&review=${INVOICE_ID}`));
    expect(page).toContain('You have already reviewed this sale.');
    expect(page).not.toContain('Send review');
  });

  it('marks a reviewed sale "Reviewed" and shows the other party’s review once it is visible', async () => {
    const mine = review({ author: { username: 'ann_buyer', name: null }, author_role: 'buyer' });
    const theirs = review({ text: 'Paid at once, <i>great</i> buyer.' });
    const html = renderStatic(<InvoicesTab />, await storeWith([invoice], [{ ...sale, can_review: false, mine, theirs }]), '/dashboard?tab=invoices');
    const page = visibleText(html);
    expect(page).toContain('Reviewed');
    expect(page).not.toContain('Leave a review');
    expect(page).toContain("Sam Seller's review of you");
    expect(html).toContain('Paid at once, &lt;i&gt;great&lt;/i&gt; buyer.');
  });
});
