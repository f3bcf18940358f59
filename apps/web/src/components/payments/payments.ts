import { luhnValid } from '@market/domain';

/**
 * The pure parts of card payments on the web (SPEC §4, §8, D11, D12; ADR 0022): what the dialog says for each invoice
 * and payment status, the sandbox card form's checks, and the error texts. The components only render these.
 */

export type Tone = 'error' | 'warning' | 'info' | 'success';

/** SPEC §8 texts of payment creation and confirmation. */
export const IN_PROGRESS_TEXT = 'A payment for this invoice is already in progress. You can complete the existing payment below.';
export const INVALID_REQUEST_TEXT = 'Invalid payment request. Please try again.';
export const INIT_FAILED_TEXT = 'Failed to initialize payment. Please try again or contact support.';
export const PROCESSING_FAILED_TEXT = 'Payment processing failed. Please try again or contact support.';
export const UNEXPECTED_TEXT = 'An unexpected error occurred. Please try again.';
export const NOT_READY_TEXT = 'Payment system not ready. Please refresh the page and try again.';
export const INITIALIZING_TEXT = 'Initializing secure payment...';
/** D11: what a card payment does with the money. */
export const FUNDS_HELD_NOTICE = 'Your funds are held securely in escrow and released to the seller only once the domain transfer is complete.';

/** The sandbox's test cards (D12), as the form lists them. */
export const TEST_CARDS: ReadonlyArray<{ number: string; outcome: string }> = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds (funds held)' },
  { number: '4000 0000 0000 0002', outcome: 'is declined' },
  { number: '4000 0000 0000 9995', outcome: 'has insufficient funds' },
  { number: '4000 0027 6000 3184', outcome: 'asks for a verification step' },
];

/** Payment statuses after which the card form is gone: the money is held or taken (SPEC §4). */
export function isPaidStatus(paymentStatus: string | null | undefined): boolean {
  return paymentStatus === 'requires_capture' || paymentStatus === 'succeeded';
}

/**
 * The dialog's status badge (SPEC §4 badge labels). A payment status with a label of its own wins; otherwise the
 * invoice's status decides, so a declined card (whose intent stays requires_payment_method, as Stripe keeps it) shows
 * the invoice's 'Payment Failed'. Anything without a label is shown as sent.
 */
export function dialogBadge(invoiceStatus: string, paymentStatus: string | null): { label: string; tone: Tone } {
  switch (paymentStatus) {
    case 'requires_capture':
      return { label: 'Payment Authorized - Funds Held', tone: 'success' };
    case 'succeeded':
      return { label: 'Payment Completed', tone: 'success' };
    case 'failed':
      return { label: 'Payment Failed', tone: 'error' };
    case 'canceled':
      return { label: 'Payment Canceled', tone: 'warning' };
  }
  switch (invoiceStatus) {
    case 'payment_failed':
      return { label: 'Payment Failed', tone: 'error' };
    case 'payment_canceled':
      return { label: 'Payment Canceled', tone: 'warning' };
    case 'awaiting_payment':
      return paymentStatus ? { label: paymentStatus, tone: 'info' } : { label: 'Ready for Payment', tone: 'info' };
    case 'payment_authorized':
      return { label: 'Payment Authorized', tone: 'success' };
    case 'paid':
      return { label: 'Completed', tone: 'success' };
    case 'pending':
      return { label: 'Pending', tone: 'info' };
    default:
      return { label: paymentStatus ?? invoiceStatus, tone: 'info' };
  }
}

/** The dialog's title and coloured banner (SPEC §4 banners), from the invoice's status and the payment's. */
export function dialogBanner(invoiceStatus: string, paymentStatus: string | null, existing: boolean): { title: string; tone: Tone; text: string } {
  if (paymentStatus === 'requires_capture') {
    return { title: 'Payment Completed', tone: 'success', text: 'Your payment is complete and the funds are held. Domain transfer verification is in progress.' };
  }
  if (paymentStatus === 'succeeded') {
    return { title: 'Payment Complete', tone: 'success', text: 'This invoice is already paid and the funds have been released to the seller.' };
  }
  if (paymentStatus === 'failed' || invoiceStatus === 'payment_failed') {
    return { title: 'Previous Payment Failed', tone: 'error', text: 'Your previous payment did not go through. Please try a different payment method.' };
  }
  if (paymentStatus === 'canceled' || invoiceStatus === 'payment_canceled') {
    return { title: 'Retry Payment', tone: 'warning', text: 'Your previous payment was canceled and nothing was charged. It is safe to try again.' };
  }
  if (invoiceStatus === 'awaiting_payment' || existing) {
    return { title: 'Continue Payment', tone: 'info', text: 'You have a payment in progress for this invoice. Complete it below.' };
  }
  return { title: 'Secure Payment', tone: 'info', text: 'Pay securely by card. Your card number is never stored.' };
}

/** A payment id as the dialog shows it (SPEC §9): its first 20 characters and an ellipsis. */
export function shortPaymentId(id: string): string {
  return id.length > 20 ? `${id.slice(0, 20)}…` : id;
}

/** Payment and bid messages are green when they contain ✅, otherwise red (SPEC §8). */
export function messageTone(text: string): 'success' | 'error' {
  return text.includes('✅') ? 'success' : 'error';
}

/** What a failed create-payment means for the dialog (SPEC §8). */
export type CreationFailure =
  | { kind: 'existing'; text: string }
  | { kind: 'error'; text: string; contactSupport: boolean };

/** The create-payment failure as the dialog handles it: 409 continues the open payment; 400 its detail; else support. */
export function creationFailure(status: number | string | undefined, body: unknown): CreationFailure {
  const detail = (body as { detail?: unknown } | null | undefined)?.detail;
  if (status === 409) return { kind: 'existing', text: IN_PROGRESS_TEXT };
  if (status === 400) return { kind: 'error', text: typeof detail === 'string' && detail.trim() ? detail : INVALID_REQUEST_TEXT, contactSupport: false };
  return { kind: 'error', text: INIT_FAILED_TEXT, contactSupport: true };
}

/** The open payment a 409 names (ADR 0020), when its body carries one. */
export function existingPayment(
  body: unknown,
): { payment_intent_id: string; client_secret: string; status: string; provider: string; publishable_key: string | null } | null {
  const value = body as
    | { payment_intent_id?: unknown; client_secret?: unknown; status?: unknown; provider?: unknown; publishable_key?: unknown }
    | null
    | undefined;
  if (typeof value?.payment_intent_id !== 'string' || typeof value.client_secret !== 'string') return null;
  return {
    payment_intent_id: value.payment_intent_id,
    client_secret: value.client_secret,
    status: typeof value.status === 'string' ? value.status : 'requires_payment_method',
    provider: typeof value.provider === 'string' ? value.provider : 'sandbox',
    publishable_key: typeof value.publishable_key === 'string' ? value.publishable_key : null,
  };
}

/** What the dialog does with an existing payment's looked-up status (SPEC §4 dialog flow). */
export function existingPaymentStep(status: string): 'paid' | 'none' | 'continue' {
  if (isPaidStatus(status)) return 'paid';
  if (status === 'canceled' || status === 'failed') return 'none';
  return 'continue';
}

/** The sandbox's answer to a confirmation, as the dialog shows it (SPEC §4, §8). */
export type ConfirmOutcome = { kind: 'success'; status: string } | { kind: 'verify' } | { kind: 'error'; text: string };

/** A sandbox confirmation result: held or succeeded is success; a verification step; the provider's error; or failure. */
export function confirmOutcome(result: { payment_intent: { status: string }; error: { message: string } | null }): ConfirmOutcome {
  if (result.error) return { kind: 'error', text: result.error.message || PROCESSING_FAILED_TEXT };
  const status = result.payment_intent.status;
  if (isPaidStatus(status)) return { kind: 'success', status };
  if (status === 'requires_confirmation' || status === 'requires_action') return { kind: 'verify' };
  return { kind: 'error', text: PROCESSING_FAILED_TEXT };
}

/** The card form's raw fields. */
export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardField = keyof CardInput;
export type CardCheck =
  | { ok: true; card: { card_number: string; exp_month: number; exp_year: number; cvc: string } }
  | { ok: false; errors: Partial<Record<CardField, string>> };

/** The card number with a space after every 4 digits, as typed into the form (at most 19 digits). */
export function formatCardNumber(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The expiry as MM / YY while typing. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** Checks the card form before anything is sent (Luhn, a real month, not expired, 3-4 digit CVC), with clear texts. */
export function checkCard(input: CardInput, now: Date = new Date()): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = input.number.replace(/[\s-]/g, '');
  if (!digits) errors.number = 'Enter your card number.';
  else if (!/^\d{12,19}$/.test(digits)) errors.number = 'Your card number is incomplete.';
  else if (!luhnValid(digits)) errors.number = 'Your card number is invalid.';

  const expiry = input.expiry.replace(/\s/g, '').match(/^(\d{1,2})\/?(\d{2}|\d{4})$/);
  let month = 0;
  let year = 0;
  if (!input.expiry.trim()) errors.expiry = 'Enter the expiry date (MM / YY).';
  else if (!expiry) errors.expiry = "Your card's expiry date is incomplete (MM / YY).";
  else {
    month = Number(expiry[1]);
    year = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const thisMonth = now.getFullYear() * 12 + now.getMonth();
    if (month < 1 || month > 12) errors.expiry = "Your card's expiry month is invalid.";
    else if (year * 12 + (month - 1) < thisMonth) errors.expiry = 'Your card has expired.';
    else if (year > 2100) errors.expiry = "Your card's expiry year is invalid.";
  }

  if (!input.cvc) errors.cvc = 'Enter the security code (CVC).';
  else if (!/^\d{3,4}$/.test(input.cvc)) errors.cvc = "Your card's security code is incomplete.";

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, card: { card_number: digits, exp_month: month, exp_year: year, cvc: input.cvc } };
}

/** The admin's capture/refund failure (SPEC §8): what went wrong, explained, by status and the server's detail. */
export function adminActionError(action: 'capture' | 'refund', status: number | string | undefined, detail: string | null): string {
  const head = `Failed to ${action} payment.`;
  if (status === 500) return `${head} Server error occurred. The payment may already be processed.`;
  if (status === 403) return `${head} You do not have permission to perform this action.`;
  if (status === 404) return `${head} Payment intent not found.`;
  const text = detail?.toLowerCase() ?? '';
  if (text.includes('already been captured') || text.includes('already captured')) return `${head} The payment was already captured: the funds have already been released.`;
  if (text.includes('already succeeded')) return `${head} The payment has already succeeded: it is already complete.`;
  if (text.includes('cannot be captured')) return `${head} The payment cannot be captured because it is not in a capturable state.`;
  if (detail) return `${head} ${detail}`;
  return `${head} Please check the payment status and try again.`;
}

/** The admin's success texts (SPEC §8), marked ✅ so they show green. */
export function adminActionSuccess(action: 'capture' | 'refund'): string {
  return action === 'capture' ? '✅ Payment captured successfully!' : '✅ Payment refunded successfully!';
}

/** The admin Payments tab's footer: how many intents, how many hold funds awaiting capture, how many completed. */
export function paymentTotals(rows: ReadonlyArray<{ status: string; amount: number }>): { total: number; awaiting: number; awaitingAmount: number; completed: number; completedAmount: number } {
  const awaiting = rows.filter((row) => row.status === 'requires_capture');
  const completed = rows.filter((row) => row.status === 'succeeded');
  const sum = (list: typeof rows) => list.reduce((total, row) => total + row.amount, 0);
  return { total: rows.length, awaiting: awaiting.length, awaitingAmount: sum(awaiting), completed: completed.length, completedAmount: sum(completed) };
}

/** The success page's query (SPEC §5): both session_id and invoice_id are needed. */
export function successParams(params: URLSearchParams): { sessionId: string; invoiceId: string } | null {
  const sessionId = params.get('session_id')?.trim();
  const invoiceId = params.get('invoice_id')?.trim();
  return sessionId && invoiceId ? { sessionId, invoiceId } : null;
}

/** Where the hosted checkout may send the buyer: only a same-origin address (the backend's success or cancel page). */
export function sameOriginPath(url: string, origin: string): string | null {
  try {
    const target = new URL(url, origin);
    if (target.origin !== origin) return null;
    return `${target.pathname}${target.search}`;
  } catch {
    return null;
  }
}
