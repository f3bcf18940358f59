/** Every state an invoice can be in (SPEC §4); the same list as INVOICE_STATUSES in the contracts. */
export const INVOICE_STATES = ['pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized', 'disputed', 'cancelled'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/**
 * What can happen to an invoice: a payment is started, authorised (funds held, D11), fails or is canceled; the held
 * funds are captured into escrow, refunded, or the hold expires; the funds are released to the seller and the payout
 * reaches them (D22); the seller marks it paid; its due date passes (D10); the buyer disputes the transfer while the
 * funds are held (ADR 0039); the payment window passes unpaid, or an admin cancels the unpaid sale (ADR 0043).
 */
export const INVOICE_EVENTS = [
  'payment_started',
  'payment_authorized',
  'payment_failed',
  'payment_canceled',
  'funds_captured',
  'refunded',
  'hold_expired',
  'marked_paid',
  'due_date_passed',
  'dispute_opened',
  'payment_window_lapsed',
  'sale_cancelled',
  'funds_released',
  'payout_sent',
] as const;
export type InvoiceEvent = (typeof INVOICE_EVENTS)[number];

/** Statuses in which the buyer may start or retry a payment (SPEC §4). */
const PAYABLE: readonly InvoiceState[] = ['pending', 'overdue', 'payment_failed', 'awaiting_payment', 'payment_canceled'];

/** True when the buyer may pay (Pay, Continue Payment, Retry Payment; SPEC §2, §4). */
export function canPay(status: InvoiceState): boolean {
  return PAYABLE.includes(status);
}

/** True when the seller may mark the invoice paid: only while pending (SPEC §4). */
export function canMarkPaid(status: InvoiceState): boolean {
  return status === 'pending';
}

/**
 * The invoice's next status after an event, or null when the event does not apply in that status (the caller refuses
 * it or, for a late provider notice, ignores it). The choices, where SPEC §4, D11 and D22 leave room:
 * - a payment may start (or be continued) from any payable status, and goes to `awaiting_payment`;
 * - an authorisation is a fact at the provider: it is taken from any payable status, since notices may arrive out of
 *   order (a late failure of an earlier attempt never undoes a hold, because failure applies only while awaiting);
 * - failure and cancelation of a payment underway make it payable again (`payment_failed`, `payment_canceled`);
 * - held funds captured into the platform's escrow leave the invoice as it is (D22: "funds held", disputed or not);
 * - held funds refunded, a canceled hold, or a disputed hold that lapsed end the sale (`cancelled`, unwound as ADR 0043
 *   unwinds an unpaid one, ADR 0063): the buyer has their money back, so the listing must not stay sold;
 * - an undisputed hold the platform could not capture in time lapses back to payable (`payment_canceled`, D11): the
 *   buyer may pay again within a new payment window, or the sale lapses then;
 * - the funds released to the seller (an admin's decision, or the transfer verified and the inspection period over)
 *   end a dispute (`payment_authorized` again) and the invoice stays held until the payout reaches the seller, which
 *   makes it `paid` (D22); `paid` is final: a refund after the payout is refused, never applied;
 * - the seller's mark on a pending invoice makes it `paid` (money outside the platform);
 * - the due date makes an unpaid invoice `overdue`, except while a payment is underway or funds are held: the payment's
 *   outcome decides, and a failed one becomes overdue on the next sweep;
 * - the buyer may dispute only while funds are held and undisputed (`payment_authorized`); it never becomes overdue
 *   while disputed;
 * - an unpaid sale ends (ADR 0043): the payment window lapsing, or an admin's cancel, makes an invoice no money is held
 *   or taken for `cancelled`, which is final: from any payable status (a payment underway that the provider has not
 *   authorised is canceled there after the lapse), never once funds are held or paid.
 */
export function invoiceTransition(status: InvoiceState, event: InvoiceEvent): InvoiceState | null {
  switch (event) {
    case 'payment_started':
      return canPay(status) ? 'awaiting_payment' : null;
    case 'payment_authorized':
      return canPay(status) ? 'payment_authorized' : null;
    case 'payment_failed':
      return status === 'awaiting_payment' ? 'payment_failed' : null;
    case 'payment_canceled':
      if (status === 'awaiting_payment') return 'payment_canceled';
      return fundsHeld(status) ? 'cancelled' : null;
    case 'funds_captured':
      return fundsHeld(status) ? status : null;
    case 'refunded':
      return fundsHeld(status) ? 'cancelled' : null;
    case 'hold_expired':
      if (status === 'payment_authorized') return 'payment_canceled';
      return status === 'disputed' ? 'cancelled' : null;
    case 'funds_released':
      return fundsHeld(status) ? 'payment_authorized' : null;
    case 'payout_sent':
      return status === 'payment_authorized' ? 'paid' : null;
    case 'marked_paid':
      return canMarkPaid(status) ? 'paid' : null;
    case 'due_date_passed':
      return status === 'pending' || status === 'payment_failed' || status === 'payment_canceled' ? 'overdue' : null;
    case 'dispute_opened':
      return status === 'payment_authorized' ? 'disputed' : null;
    case 'payment_window_lapsed':
    case 'sale_cancelled':
      return canPay(status) ? 'cancelled' : null;
  }
}

/**
 * True when an event on held funds ends the sale (D22, ADR 0063): the invoice becomes `cancelled` with the reason
 * `refunded`, and the sale is unwound as an unpaid one is (ADR 0043), with no strike for the buyer.
 */
export function endsHeldSale(status: InvoiceState, event: InvoiceEvent): boolean {
  return fundsHeld(status) && invoiceTransition(status, event) === 'cancelled';
}

/** True while the buyer's card hold keeps the invoice's funds in escrow (D11), disputed or not. */
export function fundsHeld(status: InvoiceState): boolean {
  return status === 'payment_authorized' || status === 'disputed';
}

/** The statuses from which an event moves an invoice (the overdue sweep selects by these). */
export function statusesAffectedBy(event: InvoiceEvent): InvoiceState[] {
  return INVOICE_STATES.filter((status) => invoiceTransition(status, event) !== null);
}

const DAY_MS = 24 * 3600_000;
/** Days from an invoice's creation to its due date (D10). */
export const INVOICE_DUE_DAYS = 7;

/** The due date of an invoice created at `createdAt`: seven days later (D10). */
export function dueDate(createdAt: Date): Date {
  return new Date(createdAt.getTime() + INVOICE_DUE_DAYS * DAY_MS);
}

/**
 * The end of an invoice's payment window (ADR 0043): `hours` after it was made. The buyer's card must be authorised by
 * then, or the sale lapses.
 */
export function payBy(createdAt: Date, hours: number): Date {
  if (!Number.isInteger(hours) || hours < 1) throw new RangeError(`Not a payment window in whole hours: ${hours}`);
  return new Date(createdAt.getTime() + hours * 3600_000);
}

/**
 * The invoice number INV-YYYY-NNNNNN (D10): the year it was made and a platform-wide sequence number, zero-padded to
 * six digits (more digits past 999,999, so numbers stay unique).
 */
export function invoiceNumber(year: number, seq: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`Not a four-digit year: ${year}`);
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`Not a sequence number: ${seq}`);
  return `INV-${year}-${String(seq).padStart(6, '0')}`;
}

/** What was sold, as invoices name it. */
export type InvoiceSaleType = 'auction_win' | 'accepted_offer' | 'buy_now';

/**
 * The invoice's sale type from bid.accepted's `sale` and `kind`: a buy-now purchase, an accepted offer on a fixed
 * price, else a won auction (at its end or by the seller's accept, SPEC §3 "auction_win").
 */
export function saleTypeOf(sale: 'auction_win' | 'bid_accepted' | 'accepted_after_close' | 'buy_now', kind: 'bid' | 'offer' | 'buy_now'): InvoiceSaleType {
  if (sale === 'buy_now' || kind === 'buy_now') return 'buy_now';
  if (kind === 'offer') return 'accepted_offer';
  return 'auction_win';
}
