import { saleLapsedBuyerNotice, saleLapsedSellerNotice } from './sale-lapse-email-templates';

const lapse = {
  invoice_id: 'inv-1',
  invoice_number: 'INV-2026-000042',
  listing_id: 'listing-1',
  bid_id: 'bid-1',
  buyer_id: 'u-buyer',
  seller_id: 'u-seller',
  website_title: 'Heron watching blog',
  kind: 'buy_now' as const,
  amount: 3000,
  lapsed_at: '2026-11-27T10:00:00Z',
  reason: 'unpaid' as const,
  strike: true,
  note: null,
};

describe('unpaid sale emails (ADR 0043)', () => {
  it('tells the buyer the unpaid purchase was cancelled and counts as a strike', () => {
    const notice = saleLapsedBuyerNotice(lapse);
    expect(notice.subject).toBe('Your purchase of "Heron watching blog" was cancelled');
    expect(notice.paragraphs[0]).toContain('was not paid within the payment window');
    expect(notice.paragraphs[1]).toContain('after two within 90 days');
  });

  it('tells the seller the sale fell through and the listing is back on sale', () => {
    const notice = saleLapsedSellerNotice(lapse);
    expect(notice.subject).toBe('The sale of "Heron watching blog" fell through');
    expect(notice.paragraphs[0]).toContain('the buyer did not pay within the payment window');
    expect(notice.paragraphs[1]).toContain('back on sale');
    expect(notice.link_path).toBe('/listing/listing-1');
  });

  it("gives both parties the admin's reason for a cancellation, and a strike only when the admin gave one", () => {
    const cancelled = { ...lapse, reason: 'admin_cancelled' as const, strike: false, note: 'The buyer asked to withdraw' };
    expect(saleLapsedBuyerNotice(cancelled).paragraphs).toEqual([
      'An admin cancelled your purchase of "Heron watching blog" (INV-2026-000042). Nothing was charged.',
      "The admin's reason:\nThe buyer asked to withdraw",
    ]);
    expect(saleLapsedBuyerNotice({ ...cancelled, strike: true }).paragraphs).toHaveLength(3);
    expect(saleLapsedSellerNotice(cancelled).paragraphs).toContain("The admin's reason:\nThe buyer asked to withdraw");
  });
});
