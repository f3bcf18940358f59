import type { EntityManager } from 'typeorm';
import { disputeOutcomeOf, type InvoiceEvent } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { closeOpenDispute } from './transfer.repository';

/**
 * Closes an invoice's open dispute when a provider fact or a release moved the invoice out of `disputed` (in that
 * transaction, under the invoice's lock) and writes dispute.resolved for both parties' emails (ADR 0039).
 */
export async function closeDisputeFor(
  manager: EntityManager,
  invoice: { id: string; invoice_number: string; buyer_id: string; seller_id: string; website_title: string },
  event: InvoiceEvent,
): Promise<void> {
  const outcome = disputeOutcomeOf(event);
  if (!outcome) return;
  const closed = await closeOpenDispute(manager, invoice.id, outcome);
  if (!closed) return;
  // The note belongs to the admin's decision; a lapse, or a move that is not the decided one, has none.
  const decided = (closed.resolution === 'release' && outcome === 'released') || (closed.resolution === 'refund' && outcome === 'refunded');
  await appendEvent(manager, 'dispute.resolved', {
    dispute_id: closed.id,
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    buyer_id: invoice.buyer_id,
    seller_id: invoice.seller_id,
    website_title: invoice.website_title,
    outcome,
    note: decided ? closed.resolution_note : null,
    closed_at: new Date(closed.closed_at as Date).toISOString(),
  });
}
