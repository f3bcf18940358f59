import { captureDeadline } from '../payments/payment-intent.rules';
import type { InvoiceState } from './invoice.rules';

/**
 * Escrow past the card hold (D22, ADR 0063): the platform captures the held funds into its own balance when the seller
 * starts the transfer, and at the latest this many hours before the hold's deadline; the funds then stay in escrow.
 */
export const DEFAULT_ESCROW_CAPTURE_LEAD_HOURS = 24;
/** Days after the transfer is verified during which the buyer may still dispute before the funds go out (D22). */
export const DEFAULT_INSPECTION_DAYS = 3;
export const MAX_INSPECTION_DAYS = 30;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The moment a hold authorised at `authorizedAt` must be captured by the sweep: `leadHours` before its deadline. */
export function escrowCaptureDue(authorizedAt: Date, leadHours: number): Date {
  if (!Number.isInteger(leadHours) || leadHours < 1 || leadHours >= 7 * 24) throw new RangeError(`Not a capture lead in whole hours under 7 days: ${leadHours}`);
  return new Date(captureDeadline(authorizedAt).getTime() - leadHours * HOUR);
}

/** True when a hold must be captured into escrow now: the seller started the transfer, or its capture is due. */
export function shouldCaptureHold(hold: { authorized_at: Date; transfer_started_at: Date | null }, now: Date, leadHours: number): boolean {
  return hold.transfer_started_at !== null || escrowCaptureDue(hold.authorized_at, leadHours).getTime() <= now.getTime();
}

/** When the transfer counts as verified: the buyer's domain proof (ADR 0040) or their "received", whichever came first. */
export function transferVerifiedAt(invoice: { transfer_verified_at: Date | null; transfer_received_at: Date | null }): Date | null {
  const times = [invoice.transfer_verified_at, invoice.transfer_received_at].filter((t): t is Date => t !== null).map((t) => new Date(t).getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}

/** True for a whole number of inspection days the admin setting may hold (0 releases as soon as the transfer is verified). */
export function isInspectionDays(days: unknown): days is number {
  return typeof days === 'number' && Number.isInteger(days) && days >= 0 && days <= MAX_INSPECTION_DAYS;
}

/**
 * When the funds of a held invoice go out by themselves (D22): `inspectionDays` after the transfer was verified, or
 * null while it is not verified.
 */
export function releaseDueAt(invoice: { transfer_verified_at: Date | null; transfer_received_at: Date | null }, inspectionDays: number): Date | null {
  if (!isInspectionDays(inspectionDays)) throw new RangeError(`Not a number of inspection days: ${inspectionDays}`);
  const verified = transferVerifiedAt(invoice);
  return verified ? new Date(verified.getTime() + inspectionDays * DAY) : null;
}

/** What a refund of an invoice's payment does, by where its money is (D22, ADR 0063). */
export type RefundRoute =
  | { route: 'cancel_hold' }
  | { route: 'refund_charge' }
  | { route: 'refused'; why: string };

/**
 * The way a refund goes: an uncaptured hold is canceled, captured funds are refunded from escrow, and once a payout
 * was decided or sent the money is the seller's and a refund is refused with what an admin must do instead.
 */
export function refundRoute(intentStatus: string, refunded: boolean, payout: { status: string; created_at: Date } | null): RefundRoute {
  if (payout) {
    const when = new Date(payout.created_at).toISOString().slice(0, 10);
    return {
      route: 'refused',
      why:
        `The funds were released to the seller on ${when} (payout ${payout.status.replace(/_/g, ' ')}), so they can no longer be refunded from escrow. ` +
        'Ask the seller to return them, or reverse the transfer in the provider dashboard and record it with support; the platform does not claw back a payout by itself.',
    };
  }
  if (refunded) return { route: 'refused', why: 'This payment has already been refunded.' };
  if (intentStatus === 'requires_capture') return { route: 'cancel_hold' };
  if (intentStatus === 'succeeded') return { route: 'refund_charge' };
  if (intentStatus === 'canceled') return { route: 'refused', why: 'This payment was already canceled; there is nothing to refund.' };
  return { route: 'refused', why: `This payment cannot be refunded because no funds are held (${intentStatus}).` };
}

/** Why the funds of an invoice cannot be released now, or null when they can (its status, its dispute, its payout). */
export function releaseRefusal(invoice: { status: InvoiceState }, disputeOpen: boolean, payoutExists: boolean): string | null {
  if (payoutExists) return 'The funds of this invoice were already released to the seller.';
  if (invoice.status === 'disputed' || disputeOpen) return 'This invoice is disputed: resolve the dispute (release or refund, with a note) instead.';
  if (invoice.status !== 'payment_authorized') return `No funds are held for this invoice; it is ${invoice.status.replace(/_/g, ' ')}.`;
  return null;
}
