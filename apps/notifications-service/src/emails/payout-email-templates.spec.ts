import { payoutSentNotice, payoutWaitingNotice } from './payout-email-templates';

const base = { payout_id: 'p-1', invoice_id: 'inv-1', invoice_number: 'INV-2026-000042', seller_id: 'u-seller', website_title: 'Heron watching blog' };

describe('payout emails (D22)', () => {
  it('tells the seller what the buyer paid, the fee and what reached their account, to the cent', () => {
    const sent = { ...base, buyer_id: 'u-buyer', gross: 1201, fee: 60.05, net: 1140.95, sent_at: '2026-12-06T10:00:00Z' };
    const seller = payoutSentNotice(sent, 'seller');
    expect(seller.subject).toBe('Funds released for "Heron watching blog"');
    expect(seller.paragraphs).toEqual([
      'The funds for "Heron watching blog" (INV-2026-000042) were released to you: $1,140.95 was sent to your payout account.',
      'Sale price $1,201, success fee $60.05, paid to you $1,140.95. Your bank may take a few days to show it.',
    ]);
    expect(seller.link_path).toBe('/dashboard?tab=payouts');
    const buyer = payoutSentNotice(sent, 'buyer');
    expect(buyer.paragraphs[0]).toContain('your $1,201 payment was released to the seller');
    expect(buyer.link_path).toBe('/dashboard?tab=invoices');
  });

  it('asks a seller without a payout account to set one up, and says what is happening when it is being verified or restricted', () => {
    const waiting = { ...base, net: 1140, at: '2026-12-06T10:00:00Z' };
    const notStarted = payoutWaitingNotice({ ...waiting, account_status: 'not_started' });
    expect(notStarted.subject).toBe('Set up payouts to receive $1,140 for "Heron watching blog"');
    expect(notStarted.paragraphs[1]).toMatch(/^Set up payouts from Dashboard/);
    expect(payoutWaitingNotice({ ...waiting, account_status: 'pending_verification' }).paragraphs[1]).toMatch(/being verified/);
    expect(payoutWaitingNotice({ ...waiting, account_status: 'restricted' }).paragraphs[1]).toMatch(/restricted by the payment provider/);
  });

  it('says no real money moved when the sandbox ran the payment (ADR 0033)', () => {
    const notice = payoutWaitingNotice({ ...base, net: 10, at: '2026-12-06T10:00:00Z', account_status: 'not_started', test_mode: true });
    expect(JSON.stringify(notice)).toMatch(/TEST MODE|no real money/i);
  });
});
