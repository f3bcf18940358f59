import {
  captureDeadline,
  holdExpiresSoon,
  luhnValid,
  PAYMENT_INTENT_STATUSES,
  paymentIntentTransition,
  paymentStatusLabel,
  sandboxCardOutcome,
  type PaymentIntentEvent,
  type PaymentIntentStatus,
} from './payment-intent.rules';

const EVENTS: PaymentIntentEvent[] = ['authorized', 'confirmation_required', 'declined', 'processing_started', 'captured', 'refunded', 'canceled', 'failed'];
type Row = Record<PaymentIntentEvent, PaymentIntentStatus | null>;

// Every status × every event, written out: a change to the machine must change this table.
const EXPECTED: Record<PaymentIntentStatus, Row> = {
  requires_payment_method: {
    authorized: 'requires_capture',
    confirmation_required: 'requires_confirmation',
    declined: 'requires_payment_method',
    processing_started: 'processing',
    captured: null,
    refunded: null,
    canceled: 'canceled',
    failed: 'failed',
  },
  requires_confirmation: {
    authorized: 'requires_capture',
    confirmation_required: null,
    declined: 'requires_payment_method',
    processing_started: 'processing',
    captured: null,
    refunded: null,
    canceled: 'canceled',
    failed: 'failed',
  },
  processing: {
    authorized: 'requires_capture',
    confirmation_required: null,
    declined: 'requires_payment_method',
    processing_started: null,
    captured: null,
    refunded: null,
    canceled: 'canceled',
    failed: 'failed',
  },
  requires_capture: {
    authorized: null,
    confirmation_required: null,
    declined: null,
    processing_started: null,
    captured: 'succeeded',
    refunded: 'canceled',
    canceled: 'canceled',
    failed: null,
  },
  succeeded: {
    authorized: null,
    confirmation_required: null,
    declined: null,
    processing_started: null,
    captured: null,
    refunded: 'canceled',
    canceled: null,
    failed: null,
  },
  canceled: {
    authorized: null,
    confirmation_required: null,
    declined: null,
    processing_started: null,
    captured: null,
    refunded: null,
    canceled: null,
    failed: null,
  },
  failed: {
    authorized: null,
    confirmation_required: null,
    declined: null,
    processing_started: null,
    captured: null,
    refunded: null,
    canceled: null,
    failed: null,
  },
};

describe('paymentIntentTransition (D11, D12)', () => {
  it.each(PAYMENT_INTENT_STATUSES.flatMap((status) => EVENTS.map((event) => [status, event] as const)))('%s + %s', (status, event) => {
    expect(paymentIntentTransition(status, event)).toBe(EXPECTED[status][event]);
  });

  it('never moves money twice: a replayed capture or refund changes nothing', () => {
    const captured = paymentIntentTransition('requires_capture', 'captured') as PaymentIntentStatus;
    expect(paymentIntentTransition(captured, 'captured')).toBeNull();
    const refunded = paymentIntentTransition(captured, 'refunded') as PaymentIntentStatus;
    expect(paymentIntentTransition(refunded, 'refunded')).toBeNull();
  });
});

describe('holds (D11)', () => {
  const authorized = new Date('2026-11-01T12:00:00Z');
  it('must be captured within 7 days, flagged in the last 48 hours', () => {
    expect(captureDeadline(authorized).toISOString()).toBe('2026-11-08T12:00:00.000Z');
    expect(holdExpiresSoon(authorized, new Date('2026-11-06T12:00:00Z'))).toBe(false);
    expect(holdExpiresSoon(authorized, new Date('2026-11-06T12:00:01Z'))).toBe(true);
    expect(holdExpiresSoon(authorized, new Date('2026-11-08T12:00:00Z'))).toBe(false);
  });
});

describe('sandbox test cards (D12)', () => {
  it('answers as Stripe test cards do, with spaces allowed', () => {
    expect(sandboxCardOutcome('4242 4242 4242 4242')).toBe('succeeds');
    expect(sandboxCardOutcome('4000 0000 0000 0002')).toBe('card_declined');
    expect(sandboxCardOutcome('4000-0000-0000-9995')).toBe('insufficient_funds');
    expect(sandboxCardOutcome('4000002760003184')).toBe('requires_confirmation');
    expect(sandboxCardOutcome('5555 5555 5555 4444')).toBe('succeeds');
  });

  it('refuses numbers that are not card numbers', () => {
    expect(sandboxCardOutcome('4242 4242 4242 4241')).toBeNull();
    expect(sandboxCardOutcome('1234')).toBeNull();
    expect(sandboxCardOutcome('4242x4242x4242x4242')).toBeNull();
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });
});

describe('paymentStatusLabel (SPEC §4)', () => {
  it('names each status, and shows others as they are', () => {
    expect(paymentStatusLabel('requires_payment_method')).toBe('Incomplete / Awaiting Payment');
    expect(paymentStatusLabel('requires_capture')).toBe('Awaiting Capture');
    expect(paymentStatusLabel('succeeded')).toBe('Captured / Funds Released');
    expect(paymentStatusLabel('canceled')).toBe('Cancelled / Refunded');
    expect(paymentStatusLabel('processing')).toBe('Processing');
    expect(paymentStatusLabel('requires_action')).toBe('requires_action');
  });
});
