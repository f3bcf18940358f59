import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '@market/contracts';
import { adminActed } from '@market/contracts';
import {
  canConfirmReceived,
  canMarkTransferStarted,
  canOpenDispute,
  captureDeadline,
  disputeOutcomeOf,
  HOLD_DAYS,
  HOLD_WARNING_HOURS,
  invoiceTransition,
  refundRoute,
  type DisputeOutcome,
  type DisputeReason,
  type InvoiceEvent,
} from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from '../invoices/invoices.repository';

/** A dispute row as stored (billing.disputes). */
export interface DisputeRecord {
  id: string;
  invoice_id: string;
  buyer_id: string;
  reason: DisputeReason;
  message: string;
  opened_at: Date;
  resolution: 'release' | 'refund' | null;
  resolution_note: string | null;
  resolved_by: string | null;
  resolution_audited_at: Date | null;
  escalated_at: Date | null;
  outcome: DisputeOutcome | null;
  closed_at: Date | null;
}

/** What a checked change under the invoice's lock did: applied now, found done already (a retry), or refused. */
export type LockedChange = { outcome: 'applied' | 'already'; invoice: InvoiceRecord } | { outcome: 'refused'; invoice: InvoiceRecord; why: string };

/** How an admin's decision on a dispute may proceed: `claimed` now or before (a retry), or refused with why. */
export type ResolutionClaim =
  | { outcome: 'claimed'; invoice: InvoiceRecord; dispute: DisputeRecord }
  | { outcome: 'decided'; invoice: InvoiceRecord; dispute: DisputeRecord }
  | { outcome: 'refused'; why: string };

const DISPUTE_COLUMNS = `id, invoice_id, buyer_id, reason, message, opened_at, resolution, resolution_note, resolved_by, resolution_audited_at,
  escalated_at, outcome, closed_at`;
const statusText = (status: string) => status.replace(/_/g, ' ');

/**
 * The only place that reads and writes the transfer checklist and disputes (ADR 0039). Each change locks its invoice
 * first (the same order as payments), so a dispute, a release and the provider's reconciliation of one invoice are
 * serialised: whichever commits first decides what the others see.
 */
@Injectable()
export class TransferRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The seller's "transfer started": the first time stays (a retry changes nothing); only while funds are held. */
  markTransferStarted(invoiceId: string, now: Date): Promise<LockedChange | null> {
    return this.locked(invoiceId, async (manager, invoice) => {
      if (invoice.transfer_started_at) return { outcome: 'already', invoice };
      if (!canMarkTransferStarted(invoice.status)) {
        return { outcome: 'refused', invoice, why: `The transfer can be marked started only while the buyer's funds are held; this invoice is ${statusText(invoice.status)}` };
      }
      return { outcome: 'applied', invoice: await this.setColumn(manager, invoiceId, 'transfer_started_at', now) };
    });
  }

  /** The buyer's "I have received the site": after the seller's step, while funds are held and undisputed. */
  confirmReceived(invoiceId: string, now: Date): Promise<LockedChange | null> {
    return this.locked(invoiceId, async (manager, invoice) => {
      if (invoice.transfer_received_at) return { outcome: 'already', invoice };
      if (!invoice.transfer_started_at) {
        return { outcome: 'refused', invoice, why: 'The seller has not started the transfer yet; you can confirm receipt once they have' };
      }
      if (!canConfirmReceived(invoice.status, true)) {
        const why =
          invoice.status === 'disputed'
            ? 'This invoice is disputed: an admin will decide whether the funds are released or refunded'
            : `Receipt can be confirmed only while your funds are held; this invoice is ${statusText(invoice.status)}`;
        return { outcome: 'refused', invoice, why };
      }
      return { outcome: 'applied', invoice: await this.setColumn(manager, invoiceId, 'transfer_received_at', now) };
    });
  }

  /**
   * Opens the buyer's dispute and writes dispute.opened in its transaction, or finds the one already open (a retry).
   * Refused when no funds are held, or an admin's release began first (the race is decided by the invoice's lock).
   */
  openDispute(invoiceId: string, input: { buyer_id: string; reason: DisputeReason; message: string }, now: Date): Promise<LockedChange | null> {
    return this.locked(invoiceId, async (manager, invoice) => {
      const [open]: DisputeRecord[] = await manager.query(`SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE invoice_id = $1 AND closed_at IS NULL`, [invoiceId]);
      if (open) return { outcome: 'already', invoice };
      if (invoice.release_started_at && invoice.status === 'payment_authorized') {
        return { outcome: 'refused', invoice, why: 'The funds are already being released to the seller, so a dispute can no longer be opened. Please contact support.' };
      }
      if (!canOpenDispute(invoice.status)) {
        return { outcome: 'refused', invoice, why: `A dispute can be opened only while your payment is held; this invoice is ${statusText(invoice.status)}` };
      }
      const id = randomUUID();
      await manager.query('INSERT INTO disputes (id, invoice_id, buyer_id, reason, message, opened_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        id,
        invoiceId,
        input.buyer_id,
        input.reason,
        input.message,
        now,
      ]);
      const updated = await this.setStatus(manager, invoice, 'dispute_opened');
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
    return this.dataSource.transaction(async (manager) => {
      const [invoice]: { status: string }[] = await manager.query('SELECT status FROM invoices WHERE id = $1 FOR UPDATE', [invoiceId]);
      if (!invoice) return { ok: false, why: 'Invoice not found', because: 'missing' };
      if (invoice.status === 'disputed' && !forDispute) {
        return { ok: false, why: 'This invoice is disputed: resolve the dispute (release or refund, with a note) instead.', because: 'disputed' };
      }
      const [payout]: { status: string; created_at: Date }[] = await manager.query('SELECT status, created_at FROM payouts WHERE invoice_id = $1', [invoiceId]);
      if (payout) {
        const refused = refundRoute('succeeded', false, payout);
        return { ok: false, why: refused.route === 'refused' ? refused.why : 'The funds were released to the seller.', because: 'released' };
      }
      await manager.query('UPDATE invoices SET refund_started_at = COALESCE(refund_started_at, now()), updated_at = now() WHERE id = $1', [invoiceId]);
      return { ok: true };
    });
  }

  /** Lets an invoice's refund claim go (the provider refused it, or still holds the funds as they were). */
  async clearRefund(invoiceId: string): Promise<void> {
    await this.dataSource.query(`UPDATE invoices SET refund_started_at = NULL, updated_at = now() WHERE id = $1 AND status IN ('payment_authorized', 'disputed')`, [invoiceId]);
  }

  /**
   * Claims the decision on an invoice's open dispute for an admin: the first decision is stored with its note; the same
   * decision again is a retry (claimed: the provider step runs again, harmlessly); a decided dispute whose outcome
   * matches is `decided`; anything else is refused.
   */
  claimResolution(invoiceId: string, admin: Actor, action: 'release' | 'refund', note: string): Promise<ResolutionClaim | null> {
    return this.dataSource.transaction(async (manager) => {
      const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE`, [invoiceId]);
      if (!invoice) return null;
      const [latest]: DisputeRecord[] = await manager.query(
        `SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE invoice_id = $1 ORDER BY (closed_at IS NULL) DESC, opened_at DESC LIMIT 1 FOR UPDATE`,
        [invoiceId],
      );
      const wanted: DisputeOutcome = action === 'release' ? 'released' : 'refunded';
      if (!latest) return { outcome: 'refused', why: 'This invoice has no dispute to resolve' };
      if (latest.closed_at) {
        if (latest.outcome === wanted) return { outcome: 'decided', invoice, dispute: latest };
        return { outcome: 'refused', why: `This dispute is already closed: the funds were ${latest.outcome === 'lapsed' ? 'returned when the hold lapsed' : latest.outcome}` };
      }
      if (latest.resolution && latest.resolution !== action) {
        return { outcome: 'refused', why: `Another admin is already resolving this dispute by ${latest.resolution}; reload to see the outcome` };
      }
      if (!latest.resolution) {
        await manager.query('UPDATE disputes SET resolution = $2, resolution_note = $3, resolved_by = $4 WHERE id = $1', [latest.id, action, note, admin.user_id]);
      }
      return { outcome: 'claimed', invoice, dispute: { ...latest, resolution: action, resolution_note: latest.resolution_note ?? note, resolved_by: latest.resolved_by ?? admin.user_id } };
    });
  }

  /** Releases an admin's claim the provider refused, so the dispute can be decided again. */
  async clearResolution(disputeId: string): Promise<void> {
    await this.dataSource.query('UPDATE disputes SET resolution = NULL, resolution_note = NULL, resolved_by = NULL WHERE id = $1 AND closed_at IS NULL', [disputeId]);
  }

  /**
   * Audits an admin's decision once, as soon as the provider moved the money (ADR 0032): the note goes with it. True
   * when written now.
   */
  recordResolutionAct(admin: Actor, invoice: InvoiceRecord, dispute: DisputeRecord): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [first]: [unknown[], number] = await manager.query(
        'UPDATE disputes SET resolution_audited_at = now() WHERE id = $1 AND resolution_audited_at IS NULL RETURNING id',
        [dispute.id],
      );
      if (first.length === 0) return false;
      await appendEvent(
        manager,
        'admin.acted',
        adminActed(admin, {
          action: 'dispute.resolved',
          target_type: 'invoice',
          target_id: invoice.id,
          target_label: invoice.invoice_number,
          before: { status: 'disputed', reason: dispute.reason },
          after: { resolution: dispute.resolution, note: dispute.resolution_note },
        }),
      );
      return true;
    });
  }

  /** True while the invoice has a dispute open. */
  async hasOpen(invoiceId: string): Promise<boolean> {
    const [open]: unknown[] = await this.dataSource.query('SELECT 1 FROM disputes WHERE invoice_id = $1 AND closed_at IS NULL', [invoiceId]);
    return Boolean(open);
  }

  /** The latest dispute of each invoice (open first, then newest). */
  async latestFor(invoiceIds: string[]): Promise<Map<string, DisputeRecord>> {
    if (invoiceIds.length === 0) return new Map();
    const rows: DisputeRecord[] = await this.dataSource.query(
      `SELECT DISTINCT ON (invoice_id) ${DISPUTE_COLUMNS} FROM disputes WHERE invoice_id = ANY($1::uuid[])
       ORDER BY invoice_id, (closed_at IS NULL) DESC, opened_at DESC`,
      [[...new Set(invoiceIds)]],
    );
    return new Map(rows.map((row) => [row.invoice_id, row]));
  }

  /**
   * Escalates open disputes whose hold has under 48 hours left, once each (ADR 0039): dispute.escalated tells both
   * parties, in the same transaction. Replicas share the rows (SKIP LOCKED). Returns how many were escalated.
   */
  escalateNearDeadline(now: Date, limit = 100): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const cutoff = new Date(now.getTime() - (HOLD_DAYS * 24 - HOLD_WARNING_HOURS) * 3600_000);
      const rows: (DisputeRecord & { authorized_at: Date; invoice_number: string; seller_id: string; website_title: string })[] = await manager.query(
        `SELECT d.id, d.invoice_id, d.buyer_id, p.authorized_at, i.invoice_number, i.seller_id, i.website_title
         FROM disputes d JOIN invoices i ON i.id = d.invoice_id
           JOIN payment_intents p ON p.invoice_id = d.invoice_id AND p.status = 'requires_capture'
         WHERE d.closed_at IS NULL AND d.escalated_at IS NULL AND p.authorized_at <= $1
         ORDER BY p.authorized_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
        [cutoff, limit],
      );
      for (const row of rows) {
        await manager.query('UPDATE disputes SET escalated_at = $2 WHERE id = $1', [row.id, now]);
        await appendEvent(manager, 'dispute.escalated', {
          dispute_id: row.id,
          invoice_id: row.invoice_id,
          invoice_number: row.invoice_number,
          buyer_id: row.buyer_id,
          seller_id: row.seller_id,
          website_title: row.website_title,
          capture_deadline: captureDeadline(new Date(row.authorized_at)).toISOString(),
        });
      }
      return rows.length;
    });
  }

  private locked(invoiceId: string, change: (manager: EntityManager, invoice: InvoiceRecord) => Promise<LockedChange>): Promise<LockedChange | null> {
    return this.dataSource.transaction(async (manager) => {
      const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE`, [invoiceId]);
      return invoice ? change(manager, invoice) : null;
    });
  }

  private async setColumn(manager: EntityManager, invoiceId: string, column: 'transfer_started_at' | 'transfer_received_at', now: Date): Promise<InvoiceRecord> {
    const [[row]]: [InvoiceRecord[]] = await manager.query(`UPDATE invoices SET ${column} = $2, updated_at = now() WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`, [
      invoiceId,
      now,
    ]);
    return row;
  }

  private async setStatus(manager: EntityManager, invoice: InvoiceRecord, event: InvoiceEvent): Promise<InvoiceRecord> {
    const next = invoiceTransition(invoice.status, event);
    if (next === null) throw new Error(`${event} does not apply to a ${invoice.status} invoice`);
    const [[row]]: [InvoiceRecord[]] = await manager.query(`UPDATE invoices SET status = $2, updated_at = now() WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`, [
      invoice.id,
      next,
    ]);
    return row;
  }
}

/**
 * Closes an invoice's open dispute when a provider fact moved the invoice out of `disputed` (called by the payments
 * reconciliation in its transaction, under the invoice's lock) and writes dispute.resolved for both parties' emails.
 */
export async function closeDisputeFor(
  manager: EntityManager,
  invoice: { id: string; invoice_number: string; buyer_id: string; seller_id: string; website_title: string },
  event: InvoiceEvent,
): Promise<void> {
  const outcome = disputeOutcomeOf(event);
  if (!outcome) return;
  const [[closed]]: [DisputeRecord[]] = await manager.query(
    `UPDATE disputes SET outcome = $2, closed_at = now() WHERE invoice_id = $1 AND closed_at IS NULL RETURNING ${DISPUTE_COLUMNS}`,
    [invoice.id, outcome],
  );
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
