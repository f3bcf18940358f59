import { INVOICE_EVENTS, INVOICE_STATES, invoiceTransition } from './invoice.rules';
import { canConfirmReceived, canMarkTransferStarted, canOpenDispute, disputeOutcomeOf, disputeUrgent, DISPUTE_REASONS, DISPUTE_REASON_LABELS } from './transfer.rules';

describe('transfer checklist and disputes (ADR 0039)', () => {
  it.each(INVOICE_STATES.map((s) => [s]))('%s: who may act', (status) => {
    const held = status === 'payment_authorized' || status === 'disputed';
    expect(canMarkTransferStarted(status)).toBe(held);
    expect(canConfirmReceived(status, true)).toBe(status === 'payment_authorized');
    expect(canConfirmReceived(status, false)).toBe(false);
    expect(canOpenDispute(status)).toBe(status === 'payment_authorized');
    // A dispute can be opened exactly where the state machine takes the event.
    expect(canOpenDispute(status)).toBe(invoiceTransition(status, 'dispute_opened') !== null);
  });

  it('ends a dispute exactly on the events that move a disputed invoice, with their outcome', () => {
    for (const event of INVOICE_EVENTS) {
      const next = invoiceTransition('disputed', event);
      expect(disputeOutcomeOf(event) !== null).toBe(next !== null && next !== 'disputed');
    }
    expect(disputeOutcomeOf('funds_captured')).toBeNull();
    expect(disputeOutcomeOf('funds_released')).toBe('released');
    expect(disputeOutcomeOf('refunded')).toBe('refunded');
    expect(disputeOutcomeOf('payment_canceled')).toBe('refunded');
    expect(disputeOutcomeOf('hold_expired')).toBe('lapsed');
  });

  it('labels every reason', () => {
    for (const reason of DISPUTE_REASONS) expect(DISPUTE_REASON_LABELS[reason].length).toBeGreaterThan(0);
  });

  it('is urgent from 48 hours before the capture deadline and stays urgent past it', () => {
    const authorized = new Date('2026-11-01T00:00:00Z');
    const hours = (h: number) => new Date(authorized.getTime() + h * 3600_000);
    expect(disputeUrgent(authorized, hours(119))).toBe(false);
    expect(disputeUrgent(authorized, hours(120.5))).toBe(true);
    expect(disputeUrgent(authorized, hours(168))).toBe(true);
    expect(disputeUrgent(authorized, hours(400))).toBe(true);
  });
});
