import type { InvoiceDto } from '@market/contracts';
import { escrowView } from './escrow';

type EscrowInvoice = Parameters<typeof escrowView>[0];

const held: EscrowInvoice = {
  role: 'buyer',
  status: 'payment_authorized',
  total_amount: 4500,
  success_fee_percent: 5,
  success_fee: 225,
  payout: 4275,
  escrow: { captured_at: null, release_due_at: null, payout_status: null },
};
const withEscrow = (escrow: Partial<InvoiceDto['escrow']>, rest: Partial<EscrowInvoice> = {}): EscrowInvoice => ({ ...held, ...rest, escrow: { ...held.escrow, ...escrow } });

describe('escrowView (D22)', () => {
  it('says nothing for a hold on the card that no one has captured or released yet', () => {
    expect(escrowView(held)).toBeNull();
    expect(escrowView({ ...held, role: 'seller' })).toBeNull();
  });

  it('tells the buyer their captured payment is held in escrow, and when it goes to the seller unless they dispute', () => {
    const view = escrowView(withEscrow({ captured_at: '2026-11-23T10:00:00Z', release_due_at: '2026-11-27T10:00:00Z' }), 'en-US');
    expect(view?.lines).toEqual(['Your payment is held in escrow by Site Market.', 'Released to the seller on Nov 27, 2026 unless you open a dispute before the inspection period ends.']);
  });

  it('tells the seller the same from their side', () => {
    const view = escrowView(withEscrow({ captured_at: '2026-11-23T10:00:00Z', release_due_at: '2026-11-27T10:00:00Z' }, { role: 'seller' }), 'en-US');
    expect(view?.lines).toEqual(["The buyer's payment is held in escrow by Site Market.", 'Released to you on Nov 27, 2026 unless the buyer opens a dispute during the inspection period.']);
  });

  it('leaves the release date to the dispute while one is open', () => {
    const view = escrowView(withEscrow({ captured_at: '2026-11-23T10:00:00Z', release_due_at: '2026-11-27T10:00:00Z' }, { status: 'disputed' }));
    expect(view?.lines).toEqual(['Your payment is held in escrow by Site Market.']);
  });

  it("shows the seller's payout status, with a way to set up payouts while it waits for their account", () => {
    const waiting = escrowView(withEscrow({ captured_at: '2026-11-23T10:00:00Z', payout_status: 'waiting_for_account' }, { role: 'seller' }));
    expect(waiting).toEqual({ lines: [], payoutStatus: 'waiting_for_account', setupPrompt: 'Set up payouts to receive $4,275' });
    const paid = escrowView(withEscrow({ payout_status: 'paid' }, { role: 'seller', status: 'paid' }));
    expect(paid).toEqual({ lines: [], payoutStatus: 'paid', setupPrompt: null });
  });

  it('writes a payout with cents when it has some', () => {
    const view = escrowView(withEscrow({ payout_status: 'waiting_for_account' }, { role: 'seller', total_amount: 4750, success_fee: 237.5, payout: 4512.5 }));
    expect(view?.setupPrompt).toBe('Set up payouts to receive $4,512.50');
  });

  it("keeps the seller's payout from the buyer once the funds were released", () => {
    expect(escrowView(withEscrow({ captured_at: '2026-11-23T10:00:00Z', payout_status: 'pending' }))).toBeNull();
    expect(escrowView(withEscrow({ payout_status: 'paid' }, { status: 'paid' }))).toBeNull();
  });
});
