import type { DisputeDto, InvoiceDto, OpenDisputeRequest } from '@market/contracts';
import { DISPUTE_MESSAGE_MAX, DISPUTE_MESSAGE_MIN, DISPUTE_REASON_LABELS, DISPUTE_REASONS, type DisputeReason } from '@market/domain';

/** The reasons of the dispute dialog, in the order the list shows them (ADR 0039). */
export const DISPUTE_REASON_OPTIONS: Array<{ value: DisputeReason; label: string }> = DISPUTE_REASONS.map((value) => ({ value, label: DISPUTE_REASON_LABELS[value] }));

type Checklist = Pick<InvoiceDto, 'status' | 'transfer' | 'dispute'>;

/** Whether a row shows the transfer checklist: while funds are held or disputed, and afterwards once a step was done. */
export function showsTransfer(invoice: Checklist): boolean {
  return invoice.status === 'payment_authorized' || invoice.status === 'disputed' || invoice.transfer.started_at !== null || invoice.dispute !== null;
}

/** A step's line: done with its time, or what it waits for. */
export function stepText(at: string | null, waiting: string, locale?: string): string {
  if (!at) return waiting;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? 'Done' : `Done ${date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}`;
}

/** What a dispute's state means to the party reading it. */
export function disputeSummary(dispute: DisputeDto, role: 'buyer' | 'seller'): string {
  if (dispute.status !== 'closed') {
    const who = role === 'buyer' ? 'You disputed this transfer' : 'The buyer disputed this transfer';
    return `${who}: ${dispute.reason_label}. The payment stays held until an admin releases it to the seller or refunds the buyer.`;
  }
  if (dispute.outcome === 'released') return role === 'buyer' ? 'Dispute closed: an admin released your payment to the seller.' : 'Dispute closed: an admin released the payment to you.';
  if (dispute.outcome === 'refunded') return role === 'buyer' ? 'Dispute closed: an admin refunded your payment.' : 'Dispute closed: an admin refunded the buyer.';
  return 'Dispute closed: the card hold ended at the payment provider before a decision, so nothing was charged.';
}

export type DisputeErrors = Partial<Record<'reason' | 'message', string>>;

/** Checks the dialog's fields as the server does (ADR 0039), so the buyer learns what to fix before sending. */
export function validateDispute(draft: { reason: string; message: string }): DisputeErrors {
  const errors: DisputeErrors = {};
  if (!(DISPUTE_REASONS as readonly string[]).includes(draft.reason)) errors.reason = 'Choose what went wrong';
  const length = draft.message.trim().length;
  if (length < DISPUTE_MESSAGE_MIN) errors.message = `Describe the problem in at least ${DISPUTE_MESSAGE_MIN} characters`;
  else if (length > DISPUTE_MESSAGE_MAX) errors.message = `Keep the description under ${DISPUTE_MESSAGE_MAX} characters`;
  return errors;
}

/** The request a valid draft sends. */
export function disputeRequest(draft: { reason: string; message: string }): OpenDisputeRequest {
  return { reason: draft.reason as DisputeReason, message: draft.message.trim() };
}
