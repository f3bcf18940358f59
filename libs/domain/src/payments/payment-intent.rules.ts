/**
 * Payment intents (D11, D12): Stripe's states as SPEC §4 names them, driven by the sandbox provider and by Stripe's
 * webhooks alike. Escrow is an authorisation with manual capture: the funds are held until an admin releases them.
 */
export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_capture',
  'processing',
  'succeeded',
  'canceled',
  'failed',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** What can happen to a payment intent. */
export type PaymentIntentEvent =
  /** The card was authorised: funds held (manual capture). */
  | 'authorized'
  /** The card asked for a confirmation step (3-D Secure) before it is authorised. */
  | 'confirmation_required'
  /** The card was declined; the buyer may try another one on the same intent. */
  | 'declined'
  /** The provider is still working on it. */
  | 'processing_started'
  /** An admin released the funds (capture). */
  | 'captured'
  /** An admin refunded: cancels an uncaptured hold, refunds a captured payment. */
  | 'refunded'
  /** The hold lapsed uncaptured after 7 days (Stripe cancels it), or the buyer abandoned it. */
  | 'canceled'
  /** The provider gave up on it. */
  | 'failed';

const TERMINAL: ReadonlySet<PaymentIntentStatus> = new Set(['canceled', 'failed']);

/**
 * The status after `event`, or null when the event cannot happen in `status` (a replayed or out-of-order provider event
 * is then ignored, which keeps webhook handling the same in any order).
 */
export function paymentIntentTransition(status: PaymentIntentStatus, event: PaymentIntentEvent): PaymentIntentStatus | null {
  if (TERMINAL.has(status)) return null;
  switch (event) {
    case 'authorized':
      return status === 'requires_payment_method' || status === 'requires_confirmation' || status === 'processing' ? 'requires_capture' : null;
    case 'confirmation_required':
      return status === 'requires_payment_method' ? 'requires_confirmation' : null;
    case 'declined':
      return status === 'requires_payment_method' || status === 'requires_confirmation' || status === 'processing' ? 'requires_payment_method' : null;
    case 'processing_started':
      return status === 'requires_payment_method' || status === 'requires_confirmation' ? 'processing' : null;
    case 'captured':
      return status === 'requires_capture' ? 'succeeded' : null;
    case 'refunded':
      return status === 'requires_capture' || status === 'succeeded' ? 'canceled' : null;
    case 'canceled':
      return status === 'succeeded' ? null : 'canceled';
    case 'failed':
      return status === 'succeeded' || status === 'requires_capture' ? null : 'failed';
  }
}

/** Card holds lapse after 7 days (D11); the admin Payments tab flags those with under 48 hours left. */
export const HOLD_DAYS = 7;
export const HOLD_WARNING_HOURS = 48;

/** When an authorisation made at `authorizedAt` must be captured by. */
export function captureDeadline(authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + HOLD_DAYS * 24 * 3600_000);
}

/** Whether a hold needs the admin's attention: under 48 hours to its capture deadline (and not yet past it). */
export function holdExpiresSoon(authorizedAt: Date, now: Date): boolean {
  const left = captureDeadline(authorizedAt).getTime() - now.getTime();
  return left > 0 && left < HOLD_WARNING_HOURS * 3600_000;
}

/** The sandbox provider's test cards (D12), by number without spaces; any other well-formed number succeeds. */
export type TestCardOutcome = 'succeeds' | 'card_declined' | 'insufficient_funds' | 'requires_confirmation';
const TEST_CARDS: Record<string, TestCardOutcome> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
  '4000002760003184': 'requires_confirmation',
};

/** What the sandbox does with a card number (spaces and dashes ignored); null when it is not a valid card number. */
export function sandboxCardOutcome(cardNumber: string): TestCardOutcome | null {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return null;
  return TEST_CARDS[digits] ?? 'succeeds';
}

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The admin Payments tab's label for a status (SPEC §4); unknown statuses are shown as they are. */
export function paymentStatusLabel(status: string): string {
  const labels: Record<string, string> = {
    requires_payment_method: 'Incomplete / Awaiting Payment',
    requires_confirmation: 'Requires Confirmation',
    requires_capture: 'Awaiting Capture',
    succeeded: 'Captured / Funds Released',
    canceled: 'Cancelled / Refunded',
    processing: 'Processing',
    failed: 'Failed',
  };
  return labels[status] ?? status;
}
