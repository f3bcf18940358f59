import type { InvoiceDto, PublicProfile } from '@market/contracts';
import { canConfirmReceived, canMarkPaid, canMarkTransferStarted, canOpenDispute, canPay, centsToDollars, releaseDueAt } from '@market/domain';
import type { InvoiceRecord } from './invoices.repository';
import type { InvoiceViewer } from './invoice.policy';
import type { DisputeRecord } from '../transfer/transfer.repository';
import { checklistDto, disputeDto } from '../transfer/transfer.presenter';
import { NO_ESCROW, type EscrowFacts } from './escrow-facts.reader';

/** Shown when the auth service cannot name a party (or the account was deleted, D17). */
export const UNKNOWN_USER = 'Unknown user';

/**
 * An invoice as its viewer sees it (SPEC §3, D10): the seller (and an admin) sees the success fee in force when it was
 * made, the fee and the payout; the buyer sees nulls there. Only the buyer may pay, only the seller may mark it paid.
 * `testMode`: the sandbox runs the payments, so no real money moved (ADR 0033). The transfer checklist's steps and the
 * dispute belong to their party: only the seller starts the transfer, only the buyer confirms or disputes (ADR 0039).
 */
export function presentInvoice(
  invoice: InvoiceRecord,
  viewer: InvoiceViewer,
  names: Map<string, PublicProfile>,
  testMode: boolean,
  dispute: DisputeRecord | null = null,
  escrow: EscrowFacts = NO_ESCROW,
): InvoiceDto {
  // The funds go out by themselves once the transfer is verified and the inspection period ends (D22), unless disputed.
  const due = invoice.status === 'payment_authorized' && !escrow.payout_status && !(dispute && !dispute.closed_at) ? releaseDueAt(invoice, escrow.inspection_days) : null;
  const sellerView = viewer !== 'buyer';
  const party = (id: string) => ({ id, username: names.get(id)?.username ?? UNKNOWN_USER });
  return {
    id: invoice.id,
    invoice_number: invoice.invoice_number,
    sale_type: invoice.sale_type,
    role: viewer === 'buyer' ? 'buyer' : 'seller',
    listing_id: invoice.listing_id,
    website_title: invoice.website_title,
    website_url: invoice.website_url,
    total_amount: centsToDollars(invoice.amount_cents),
    status: invoice.status,
    due_date: invoice.due_date.toISOString(),
    pay_by: invoice.pay_by?.toISOString() ?? null,
    created_at: invoice.created_at.toISOString(),
    paid_at: invoice.paid_at?.toISOString() ?? null,
    buyer: party(invoice.buyer_id),
    seller: party(invoice.seller_id),
    success_fee_percent: sellerView ? invoice.success_fee_percent : null,
    success_fee: sellerView ? centsToDollars(invoice.fee_cents) : null,
    payout: sellerView ? centsToDollars(invoice.payout_cents) : null,
    can_pay: viewer === 'buyer' && canPay(invoice.status),
    can_mark_paid: viewer === 'seller' && canMarkPaid(invoice.status),
    test_mode: testMode,
    transfer: checklistDto(invoice),
    dispute: dispute ? disputeDto(dispute) : null,
    can_mark_transfer_started: viewer === 'seller' && !invoice.transfer_started_at && canMarkTransferStarted(invoice.status),
    // Once the funds were released the buyer's confirmation decides nothing more (D22): it is not offered.
    can_confirm_received:
      viewer === 'buyer' && !invoice.transfer_received_at && !invoice.release_started_at && canConfirmReceived(invoice.status, invoice.transfer_started_at !== null),
    can_dispute: viewer === 'buyer' && canOpenDispute(invoice.status) && !invoice.release_started_at,
    cancel_reason: invoice.status === 'cancelled' ? invoice.cancel_reason : null,
    escrow: {
      captured_at: escrow.captured_at ? new Date(escrow.captured_at).toISOString() : null,
      release_due_at: due ? due.toISOString() : null,
      payout_status: escrow.payout_status,
    },
  };
}
