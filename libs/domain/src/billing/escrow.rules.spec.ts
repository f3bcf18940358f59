import { escrowCaptureDue, isInspectionDays, refundRoute, releaseDueAt, releaseRefusal, shouldCaptureHold, transferVerifiedAt } from './escrow.rules';
import { disputeReasonRefusal, DISPUTE_REASONS } from './transfer.rules';

const at = (iso: string) => new Date(iso);
const HOUR = 3600_000;

describe('escrow past the card hold (D22)', () => {
  const authorized = at('2026-12-01T10:00:00Z');

  it('captures a hold a lead before its 7-day deadline, or at once when the seller started the transfer', () => {
    expect(escrowCaptureDue(authorized, 24).toISOString()).toBe('2026-12-07T10:00:00.000Z');
    expect(escrowCaptureDue(authorized, 1).toISOString()).toBe('2026-12-08T09:00:00.000Z');
    const due = escrowCaptureDue(authorized, 24).getTime();
    expect(shouldCaptureHold({ authorized_at: authorized, transfer_started_at: null }, new Date(due - 1), 24)).toBe(false);
    expect(shouldCaptureHold({ authorized_at: authorized, transfer_started_at: null }, new Date(due), 24)).toBe(true);
    expect(shouldCaptureHold({ authorized_at: authorized, transfer_started_at: at('2026-12-02T00:00:00Z') }, authorized, 24)).toBe(true);
  });

  it('refuses a lead that is not whole hours inside the hold', () => {
    for (const lead of [0, -1, 1.5, 168, Number.NaN]) expect(() => escrowCaptureDue(authorized, lead)).toThrow(RangeError);
  });

  it('counts the transfer verified from the earlier of the domain proof and the buyer\u2019s receipt', () => {
    expect(transferVerifiedAt({ transfer_verified_at: null, transfer_received_at: null })).toBeNull();
    expect(transferVerifiedAt({ transfer_verified_at: at('2026-12-03T00:00:00Z'), transfer_received_at: at('2026-12-02T00:00:00Z') })?.toISOString()).toBe(
      '2026-12-02T00:00:00.000Z',
    );
    expect(transferVerifiedAt({ transfer_verified_at: at('2026-12-03T00:00:00Z'), transfer_received_at: null })?.toISOString()).toBe('2026-12-03T00:00:00.000Z');
  });

  it('releases by itself the inspection days after verification, and never before verification', () => {
    const received = at('2026-12-02T12:00:00Z');
    expect(releaseDueAt({ transfer_verified_at: null, transfer_received_at: received }, 3)?.toISOString()).toBe('2026-12-05T12:00:00.000Z');
    expect(releaseDueAt({ transfer_verified_at: null, transfer_received_at: received }, 0)?.getTime()).toBe(received.getTime());
    expect(releaseDueAt({ transfer_verified_at: null, transfer_received_at: null }, 3)).toBeNull();
    expect(() => releaseDueAt({ transfer_verified_at: null, transfer_received_at: received }, 31)).toThrow(RangeError);
    expect([0, 3, 30].every(isInspectionDays)).toBe(true);
    expect([-1, 2.5, 31, '3', null].some(isInspectionDays)).toBe(false);
    expect(received.getTime() + 3 * 24 * HOUR).toBe(at('2026-12-05T12:00:00Z').getTime());
  });

  it('refunds by where the money is, and refuses once a payout was decided, saying what to do instead', () => {
    expect(refundRoute('requires_capture', false, null)).toEqual({ route: 'cancel_hold' });
    expect(refundRoute('succeeded', false, null)).toEqual({ route: 'refund_charge' });
    expect(refundRoute('canceled', false, null).route).toBe('refused');
    expect(refundRoute('requires_payment_method', false, null).route).toBe('refused');
    expect(refundRoute('succeeded', true, null)).toEqual({ route: 'refused', why: 'This payment has already been refunded.' });
    const refused = refundRoute('succeeded', false, { status: 'paid', created_at: at('2026-12-05T00:00:00Z') });
    expect(refused.route).toBe('refused');
    expect(refused.route === 'refused' && refused.why).toMatch(/released to the seller on 2026-12-05 \(payout paid\).*reverse the transfer/);
  });

  it('releases only undisputed held funds with no payout yet', () => {
    expect(releaseRefusal({ status: 'payment_authorized' }, false, false)).toBeNull();
    expect(releaseRefusal({ status: 'payment_authorized' }, false, true)).toMatch(/already released/);
    expect(releaseRefusal({ status: 'disputed' }, true, false)).toMatch(/disputed/);
    expect(releaseRefusal({ status: 'paid' }, false, false)).toMatch(/it is paid/);
    expect(releaseRefusal({ status: 'cancelled' }, false, false)).toMatch(/it is cancelled/);
  });

  it('keeps "not received" closed to a buyer who confirmed receipt, and every other reason open', () => {
    expect(disputeReasonRefusal('site_not_received', true)).toMatch(/confirmed that you received the site/);
    expect(disputeReasonRefusal('site_not_received', false)).toBeNull();
    for (const reason of DISPUTE_REASONS.filter((r) => r !== 'site_not_received')) expect(disputeReasonRefusal(reason, true)).toBeNull();
  });
});
