import type { AdminPaymentIntentDto, PaymentIntentStatusDto } from '@market/contracts';
import { captureDeadline, centsToDollars, disputeUrgent, holdExpiresSoon, paymentStatusLabel } from '@market/domain';
import type { AdminPaymentIntentRecord, PaymentIntentRecord } from './payment-intents.repository';
import type { DisputeRecord } from '../transfer/transfer.repository';
import type { PayoutRecord } from '../payouts/payouts.repository';
import type { PayoutAccountRecord } from '../payouts/payout-accounts.repository';
import { checklistDto, disputeDto } from '../transfer/transfer.presenter';

/** A payment's status as its buyer, its seller or an admin reads it. */
export function statusDto(intent: PaymentIntentRecord): PaymentIntentStatusDto {
  return { id: intent.id, status: intent.status, invoice_id: intent.invoice_id, amount: centsToDollars(intent.amount_cents), last_error: intent.last_error };
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

/**
 * An admin Payments row (SPEC §3): a hold shows its capture deadline and whether under 48 hours are left (D11), the
 * invoice's transfer checklist and its dispute; an open dispute on a hold near (or past) its deadline is urgent (ADR 0039).
 * Captured funds show since when they are held in escrow, until released or refunded; a release shows its payout and,
 * while it waits, the seller's account status (D22).
 */
export function adminDto(
  row: AdminPaymentIntentRecord,
  now: Date,
  dispute: DisputeRecord | null = null,
  payout: PayoutRecord | null = null,
  accounts: Map<string, PayoutAccountRecord> = new Map(),
): AdminPaymentIntentDto {
  const holding = row.status === 'requires_capture' && row.authorized_at;
  const inEscrow = row.status === 'succeeded' && !row.refunded_at && row.captured_at && (!payout || payout.status === 'waiting_for_account' || payout.status === 'pending');
  return {
    id: row.id,
    provider: row.provider,
    stripe_payment_intent_id: row.provider_intent_id,
    invoice_id: row.invoice_id,
    invoice_number: row.invoice_number,
    amount: centsToDollars(row.amount_cents),
    currency: row.currency,
    status: row.status,
    status_label: paymentStatusLabel(row.status),
    capture_method: row.capture_method,
    metadata: { website_title: row.website_title, invoice_number: row.invoice_number },
    created_at: new Date(row.created_at).toISOString(),
    authorized_at: iso(row.authorized_at),
    capture_deadline: holding ? captureDeadline(new Date(row.authorized_at as Date)).toISOString() : null,
    expires_soon: holding ? holdExpiresSoon(new Date(row.authorized_at as Date), now) : false,
    captured_at: iso(row.captured_at),
    succeeded_at: iso(row.succeeded_at),
    refunded_at: iso(row.refunded_at),
    canceled_at: iso(row.canceled_at),
    last_error: row.last_error,
    invoice_status: row.invoice_status,
    transfer: checklistDto(row),
    dispute: dispute ? disputeDto(dispute) : null,
    dispute_urgent: Boolean(holding && dispute && !dispute.closed_at && disputeUrgent(new Date(row.authorized_at as Date), now)),
    held_in_escrow_since: inEscrow ? iso(row.captured_at) : null,
    payout: payout
      ? {
          status: payout.status,
          net: centsToDollars(payout.net_cents),
          fee: centsToDollars(payout.fee_cents),
          seller_account_status: accounts.get(payout.seller_id)?.status ?? 'not_started',
          paid_at: iso(payout.paid_at),
        }
      : null,
  };
}
