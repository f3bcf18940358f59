import { disputeEscalatedNotice, disputeOpenedSellerNotice, disputeResolvedNotice } from './dispute-email-templates';

const base = {
  dispute_id: 'd-1',
  invoice_id: 'inv-1',
  invoice_number: 'INV-2026-000042',
  buyer_id: 'u-buyer',
  seller_id: 'u-seller',
  website_title: 'Heron watching blog',
};

describe('dispute emails (ADR 0039)', () => {
  it("tells the seller the buyer's reason and words", () => {
    const notice = disputeOpenedSellerNotice({ ...base, reason: 'access_incomplete', message: 'No hosting login arrived.', opened_at: '2026-11-25T10:00:00Z' });
    expect(notice.subject).toBe('The buyer disputed the transfer of "Heron watching blog"');
    expect(notice.paragraphs).toContain('Reason: Some accounts or files were not handed over');
    expect(notice.paragraphs).toContain('The buyer wrote:\nNo hosting login arrived.');
    expect(notice.link_path).toBe('/dashboard?tab=invoices');
  });

  it("tells each party the outcome in their own terms, with the admin's note when there is one", () => {
    const refunded = { ...base, outcome: 'refunded' as const, note: 'The site never changed hands.', closed_at: '2026-11-26T10:00:00Z' };
    expect(disputeResolvedNotice(refunded, 'buyer').paragraphs).toEqual([
      'An admin decided the dispute on "Heron watching blog" (INV-2026-000042): your payment was refunded. Your bank may take a few days to show it.',
      "The admin's note:\nThe site never changed hands.",
    ]);
    expect(disputeResolvedNotice({ ...refunded, outcome: 'released' }, 'seller').paragraphs[0]).toContain("the buyer's payment was released to you");
    expect(disputeResolvedNotice({ ...refunded, outcome: 'lapsed', note: null }, 'seller').paragraphs).toHaveLength(1);
  });

  it('names the deadline when a decision is due', () => {
    const notice = disputeEscalatedNotice({ ...base, capture_deadline: '2026-11-27T10:00:00Z' });
    expect(notice.subject).toBe('Dispute on INV-2026-000042: a decision is due');
    expect(notice.paragraphs[0]).toContain('Fri, 27 Nov 2026 10:00:00 UTC');
  });
});
