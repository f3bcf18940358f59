import { fundsHeld, type InvoiceEvent, type InvoiceState } from './invoice.rules';
import { captureDeadline, HOLD_WARNING_HOURS } from '../payments/payment-intent.rules';

/** Why a buyer disputes a transfer (ADR 0039): a fixed list, so admins can sort and count them. */
export const DISPUTE_REASONS = ['site_not_received', 'not_as_described', 'access_incomplete', 'seller_unresponsive', 'other'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** What each reason reads as, in the dialog, the admin tab and the seller's email. */
export const DISPUTE_REASON_LABELS: Record<DisputeReason, string> = {
  site_not_received: 'I have not received the site',
  not_as_described: 'The site is not as described',
  access_incomplete: 'Some accounts or files were not handed over',
  seller_unresponsive: 'The seller does not answer',
  other: 'Something else',
};

/** Bounds of the buyer's dispute message: enough to say what is wrong, short enough to read in an email. */
export const DISPUTE_MESSAGE_MIN = 20;
export const DISPUTE_MESSAGE_MAX = 2000;
/** Bounds of the admin's resolution note, audited with the decision (ADR 0032). */
export const RESOLUTION_NOTE_MIN = 10;
export const RESOLUTION_NOTE_MAX = 1000;

/** How a dispute ended: the held funds released to the seller, refunded to the buyer, or the hold lapsed at the provider. */
export type DisputeOutcome = 'released' | 'refunded' | 'lapsed';

/** The seller may mark the transfer started while the funds are held, disputed or not (the transfer may still go on). */
export function canMarkTransferStarted(status: InvoiceState): boolean {
  return fundsHeld(status);
}

/**
 * The buyer may confirm receipt once the seller started the transfer, while the funds are held and undisputed: with a
 * dispute open, the admin's decision is the one that counts.
 */
export function canConfirmReceived(status: InvoiceState, transferStarted: boolean): boolean {
  return status === 'payment_authorized' && transferStarted;
}

/** The buyer may open a dispute only while the funds are held and no dispute is open (ADR 0039). */
export function canOpenDispute(status: InvoiceState): boolean {
  return status === 'payment_authorized';
}

/**
 * The outcome of a dispute when its invoice leaves `disputed` by an event, or null when the event does not end it: a
 * release to the seller (D22), a refund or canceled hold refunds them, an expired hold lapsed. A capture into escrow
 * ends nothing: the funds stay held while the dispute is decided.
 */
export function disputeOutcomeOf(event: InvoiceEvent): DisputeOutcome | null {
  switch (event) {
    case 'funds_released':
      return 'released';
    case 'refunded':
    case 'payment_canceled':
      return 'refunded';
    case 'hold_expired':
      return 'lapsed';
    default:
      return null;
  }
}

/**
 * A disputed hold is urgent for admins from 48 hours before its capture deadline, and stays urgent past it (ADR 0039):
 * the platform never lets a disputed hold lapse by itself, so only an admin's decision ends it.
 */
export function disputeUrgent(authorizedAt: Date, now: Date): boolean {
  return captureDeadline(authorizedAt).getTime() - now.getTime() < HOLD_WARNING_HOURS * 3600_000;
}

/**
 * Why the buyer may not dispute for this reason, or null: a buyer who confirmed they have received the site cannot then
 * say they have not (ADR 0063); every other reason stays open until the funds are released.
 */
export function disputeReasonRefusal(reason: DisputeReason, receiptConfirmed: boolean): string | null {
  if (reason === 'site_not_received' && receiptConfirmed) {
    return 'You confirmed that you received the site, so you cannot dispute it as not received. If something is missing or wrong, choose the reason that says what.';
  }
  return null;
}
