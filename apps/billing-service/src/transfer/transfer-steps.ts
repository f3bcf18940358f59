import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { adminActed, type Actor } from '@market/contracts';
import {
  canConfirmReceived,
  canMarkTransferStarted,
  canOpenDispute,
  captureDeadline,
  HOLD_DAYS,
  HOLD_WARNING_HOURS,
  invoiceTransition,
  refundRoute,
  type DisputeOutcome,
  type DisputeReason,
} from '@market/domain';
import { appendEvent } from '@market/server-kit';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import { TransferRepository, type DisputeRecord, type LockedChange, type ResolutionClaim } from './transfer.repository';

const statusText = (status: string) => status.replace(/_/g, ' ');

/**
 * The transfer checklist and disputes under the invoice's lock (ADR 0039, 0070): each step locks its invoice first (the
 * same order as payments), so a dispute, a release and the provider's reconciliation of one invoice are serialised;
 * whichever commits first decides what the others see. Who may ask is TransferService's (invoice.policy) before this.
 */
@Injectable()
export class TransferSteps {
  constructor(private readonly rows: TransferRepository) {}

  /** The seller's "transfer started": the first time stays (a retry changes nothing); only while funds are held. */
  markTransferStarted(invoiceId: string, now: Date): Promise<LockedChange | null> {
    return this.locked(invoiceId, async (manager, invoice) => {
      if (invoice.transfer_started_at) return { outcome: 'already', invoice };
      if (!canMarkTransferStarted(invoice.status)) {
        return { outcome: 'refused', invoice, why: `The transfer can be marked started only while the buyer's funds are held; this invoice is ${statusText(invoice.status)}` };
      }
      return { outcome: 'applied', invoice: await this.rows.markStep(invoiceId, 'transfer_started_at', now, manager) };
    });
  }

  /** The buyer's "I have received the site": after the seller's step, while funds are held and undisputed. */
  confirmReceived(invoiceId: string, now: Date): Promise<LockedChange | null> {
    return this.locked(invoiceId, async (manager, invoice) => {
      if (invoice.transfer_received_at) return { outcome: 'already', invoice };
      if (!invoice.transfer_started_at) return { outcome: 'refused', invoice, why: 'The seller has not started the transfer yet; you can confirm receipt once they have' };
      if (!canConfirmReceived(invoice.status, true)) {
        const why =
          invoice.status === 'disputed'
            ? 'This invoice is disputed: an admin will decide whether the funds are released or refunded'
            : `Receipt can be confirmed only while your funds are held; this invoice is ${statusText(invoice.status)}`;
        return { outcome: 'refused', invoice, why };
      }
      return { outcome: 'applied', invoice: await this.rows.markStep(invoiceId, 'transfer_received_at', now, manager) };
    });
  }

  /**
   * Opens the buyer's dispute and writes dispute.opened in its transaction, or finds the one already open (a retry).
   * Refused when no funds are held, or an admin's release began first (the race is decided by the invoice's lock).
   */
  openDispute(invoiceId: string, input: { buyer_id: string; reason: DisputeReason; message: string }, now: Date): Promise<LockedChange | null> {
    return this.locked(invoiceId, async (manager, invoice) => {
      if (await this.rows.openDisputeOf(invoiceId, manager)) return { outcome: 'already', invoice };
      if (invoice.release_started_at && invoice.status === 'payment_authorized') {
        return { outcome: 'refused', invoice, why: 'The funds are already being released to the seller, so a dispute can no longer be opened. Please contact support.' };
      }
      const next = canOpenDispute(invoice.status) ? invoiceTransition(invoice.status, 'dispute_opened') : null;
      if (next === null) return { outcome: 'refused', invoice, why: `A dispute can be opened only while your payment is held; this invoice is ${statusText(invoice.status)}` };
      const id = randomUUID();
      await this.rows.insertDispute({ id, invoice_id: invoiceId, buyer_id: input.buyer_id, reason: input.reason, message: input.message, opened_at: now }, manager);
      const updated = await this.rows.writeStatus(invoiceId, next, manager);
      await appendEvent(manager, 'dispute.opened', {
        dispute_id: id,
        invoice_id: invoiceId,
        invoice_number: invoice.invoice_number,
        buyer_id: invoice.buyer_id,
        seller_id: invoice.seller_id,
        website_title: invoice.website_title,
        reason: input.reason,
        message: input.message,
        opened_at: now.toISOString(),
      });
      return { outcome: 'applied', invoice: updated };
    });
  }

  /**
   * Claims an invoice for a refund before the provider is asked (D22, ADR 0063), under the invoice's lock: refused
   * while it is disputed (unless the dispute's own decision refunds it) or once a payout was decided; from here on no
   * release can be claimed. `clearRefund` lets the claim go when the provider refused the refund.
   */
  claimRefund(invoiceId: string, forDispute: boolean): Promise<{ ok: true } | { ok: false; why: string; because: 'missing' | 'disputed' | 'released' }> {
    return this.rows.transaction(async (manager) => {
      const invoice = await this.rows.lockInvoice(invoiceId, manager);
      if (!invoice) return { ok: false, why: 'Invoice not found', because: 'missing' };
      if (invoice.status === 'disputed' && !forDispute) {
        return { ok: false, why: 'This invoice is disputed: resolve the dispute (release or refund, with a note) instead.', because: 'disputed' };
      }
      const payout = await this.rows.payoutOf(invoiceId, manager);
      if (payout) {
        const refused = refundRoute('succeeded', false, payout);
        return { ok: false, why: refused.route === 'refused' ? refused.why : 'The funds were released to the seller.', because: 'released' };
      }
      await this.rows.markRefundStarted(invoiceId, manager);
      return { ok: true };
    });
  }

  /** Lets an invoice's refund claim go (TransferRepository.clearRefund). */
  clearRefund(invoiceId: string): Promise<void> {
    return this.rows.clearRefund(invoiceId);
  }

  /**
   * Claims the decision on an invoice's open dispute for an admin: the first decision is stored with its note; the same
   * decision again is a retry (claimed: the provider step runs again, harmlessly); a decided dispute whose outcome
   * matches is `decided`; anything else is refused.
   */
  claimResolution(invoiceId: string, admin: Actor, action: 'release' | 'refund', note: string): Promise<ResolutionClaim | null> {
    return this.rows.transaction(async (manager) => {
      const invoice = await this.rows.lockInvoice(invoiceId, manager);
      if (!invoice) return null;
      const latest = await this.rows.lockLatestDispute(invoiceId, manager);
      const wanted: DisputeOutcome = action === 'release' ? 'released' : 'refunded';
      if (!latest) return { outcome: 'refused', why: 'This invoice has no dispute to resolve' };
      if (latest.closed_at) {
        if (latest.outcome === wanted) return { outcome: 'decided', invoice, dispute: latest };
        return { outcome: 'refused', why: `This dispute is already closed: the funds were ${latest.outcome === 'lapsed' ? 'returned when the hold lapsed' : latest.outcome}` };
      }
      if (latest.resolution && latest.resolution !== action) {
        return { outcome: 'refused', why: `Another admin is already resolving this dispute by ${latest.resolution}; reload to see the outcome` };
      }
      if (!latest.resolution) await this.rows.storeResolution(latest.id, action, note, admin.user_id, manager);
      return { outcome: 'claimed', invoice, dispute: { ...latest, resolution: action, resolution_note: latest.resolution_note ?? note, resolved_by: latest.resolved_by ?? admin.user_id } };
    });
  }

  /** Audits an admin's decision once, as soon as the provider moved the money (ADR 0032): the note goes with it. True when written now. */
  recordResolutionAct(admin: Actor, invoice: InvoiceRecord, dispute: DisputeRecord): Promise<boolean> {
    return this.rows.transaction(async (manager) => {
      if (!(await this.rows.markAudited(dispute.id, manager))) return false;
      const change = { before: { status: 'disputed', reason: dispute.reason }, after: { resolution: dispute.resolution, note: dispute.resolution_note } };
      await appendEvent(manager, 'admin.acted', adminActed(admin, { action: 'dispute.resolved', target_type: 'invoice', target_id: invoice.id, target_label: invoice.invoice_number, ...change }));
      return true;
    });
  }

  /**
   * Escalates open disputes whose hold has under 48 hours left, once each (ADR 0039): dispute.escalated tells both
   * parties, in the same transaction. Replicas share the rows (SKIP LOCKED). Returns how many were escalated.
   */
  escalateNearDeadline(now: Date, limit = 100): Promise<number> {
    return this.rows.transaction(async (manager) => {
      const cutoff = new Date(now.getTime() - (HOLD_DAYS * 24 - HOLD_WARNING_HOURS) * 3600_000);
      const rows = await this.rows.nearDeadline(cutoff, limit, manager);
      for (const { id, authorized_at: authorizedAt, ...parties } of rows) {
        await this.rows.markEscalated(id, now, manager);
        // The row carries the invoice's and both parties' fields the event names.
        await appendEvent(manager, 'dispute.escalated', { dispute_id: id, ...parties, capture_deadline: captureDeadline(new Date(authorizedAt)).toISOString() });
      }
      return rows.length;
    });
  }

  private locked(invoiceId: string, change: (manager: EntityManager, invoice: InvoiceRecord) => Promise<LockedChange>): Promise<LockedChange | null> {
    return this.rows.transaction(async (manager) => {
      const invoice = await this.rows.lockInvoice(invoiceId, manager);
      return invoice ? change(manager, invoice) : null;
    });
  }
}
