import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DisputeOutcome, DisputeReason, InvoiceState } from '@market/domain';
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

/**
 * The rows of the transfer checklist and disputes (ADR 0039): reads and writes only; TransferSteps decides. Changes run
 * in a transaction that locked the invoice first (the same order as payments).
 */
@Injectable()
export class TransferRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The invoice, locked; null when there is none. */
  async lockInvoice(invoiceId: string, manager: EntityManager): Promise<InvoiceRecord | null> {
    const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE`, [invoiceId]);
    return invoice ?? null;
  }

  /** Stamps a step of the transfer checklist. */
  async markStep(invoiceId: string, column: 'transfer_started_at' | 'transfer_received_at', now: Date, manager: EntityManager): Promise<InvoiceRecord> {
    const [[row]]: [InvoiceRecord[]] = await manager.query(`UPDATE invoices SET ${column} = $2, updated_at = now() WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`, [invoiceId, now]);
    return row;
  }

  /** Writes the invoice's status. */
  async writeStatus(invoiceId: string, status: InvoiceState, manager: EntityManager): Promise<InvoiceRecord> {
    const [[row]]: [InvoiceRecord[]] = await manager.query(`UPDATE invoices SET status = $2, updated_at = now() WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`, [invoiceId, status]);
    return row;
  }

  /** The invoice's open dispute, if any. */
  async openDisputeOf(invoiceId: string, manager: EntityManager): Promise<DisputeRecord | null> {
    const [open]: DisputeRecord[] = await manager.query(`SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE invoice_id = $1 AND closed_at IS NULL`, [invoiceId]);
    return open ?? null;
  }

  /** Stores a buyer's dispute. */
  async insertDispute(dispute: { id: string; invoice_id: string; buyer_id: string; reason: DisputeReason; message: string; opened_at: Date }, manager: EntityManager): Promise<void> {
    await manager.query('INSERT INTO disputes (id, invoice_id, buyer_id, reason, message, opened_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      dispute.id,
      dispute.invoice_id,
      dispute.buyer_id,
      dispute.reason,
      dispute.message,
      dispute.opened_at,
    ]);
  }

  /** The invoice's payout's status and when it was made, if any. */
  async payoutOf(invoiceId: string, manager: EntityManager): Promise<{ status: string; created_at: Date } | null> {
    const [payout]: { status: string; created_at: Date }[] = await manager.query('SELECT status, created_at FROM payouts WHERE invoice_id = $1', [invoiceId]);
    return payout ?? null;
  }

  /** Marks the invoice's refund as started (the first time stays). */
  async markRefundStarted(invoiceId: string, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE invoices SET refund_started_at = COALESCE(refund_started_at, now()), updated_at = now() WHERE id = $1', [invoiceId]);
  }

  /** Lets an invoice's refund claim go (the provider refused it, or still holds the funds as they were). */
  async clearRefund(invoiceId: string): Promise<void> {
    await this.dataSource.query(`UPDATE invoices SET refund_started_at = NULL, updated_at = now() WHERE id = $1 AND status IN ('payment_authorized', 'disputed')`, [invoiceId]);
  }

  /** The invoice's latest dispute (open first, then newest), locked. */
  async lockLatestDispute(invoiceId: string, manager: EntityManager): Promise<DisputeRecord | null> {
    const [latest]: DisputeRecord[] = await manager.query(
      `SELECT ${DISPUTE_COLUMNS} FROM disputes WHERE invoice_id = $1 ORDER BY (closed_at IS NULL) DESC, opened_at DESC LIMIT 1 FOR UPDATE`,
      [invoiceId],
    );
    return latest ?? null;
  }

  /** Stores an admin's decision on a dispute with its note. */
  async storeResolution(disputeId: string, action: 'release' | 'refund', note: string, adminId: string, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE disputes SET resolution = $2, resolution_note = $3, resolved_by = $4 WHERE id = $1', [disputeId, action, note, adminId]);
  }

  /** Releases an admin's claim the provider refused, so the dispute can be decided again. */
  async clearResolution(disputeId: string): Promise<void> {
    await this.dataSource.query('UPDATE disputes SET resolution = NULL, resolution_note = NULL, resolved_by = NULL WHERE id = $1 AND closed_at IS NULL', [disputeId]);
  }

  /** Marks a decision audited; true the first time. */
  async markAudited(disputeId: string, manager: EntityManager): Promise<boolean> {
    const [first]: [unknown[], number] = await manager.query('UPDATE disputes SET resolution_audited_at = now() WHERE id = $1 AND resolution_audited_at IS NULL RETURNING id', [disputeId]);
    return first.length > 0;
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

  /** Open, not yet escalated disputes whose hold was authorised at or before `cutoff`, locked (SKIP LOCKED: replicas share). */
  nearDeadline(cutoff: Date, limit: number, manager: EntityManager): Promise<(Pick<DisputeRecord, 'id' | 'invoice_id' | 'buyer_id'> & { authorized_at: Date; invoice_number: string; seller_id: string; website_title: string })[]> {
    return manager.query(
      `SELECT d.id, d.invoice_id, d.buyer_id, p.authorized_at, i.invoice_number, i.seller_id, i.website_title
       FROM disputes d JOIN invoices i ON i.id = d.invoice_id
         JOIN payment_intents p ON p.invoice_id = d.invoice_id AND p.status = 'requires_capture'
       WHERE d.closed_at IS NULL AND d.escalated_at IS NULL AND p.authorized_at <= $1
       ORDER BY p.authorized_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
      [cutoff, limit],
    );
  }

  /** Marks a dispute escalated. */
  async markEscalated(disputeId: string, now: Date, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE disputes SET escalated_at = $2 WHERE id = $1', [disputeId, now]);
  }
}

/** Closes the invoice's open dispute with `outcome` (the caller holds the invoice's lock); null when none is open. */
export async function closeOpenDispute(manager: EntityManager, invoiceId: string, outcome: DisputeOutcome): Promise<DisputeRecord | null> {
  const [[closed]]: [DisputeRecord[]] = await manager.query(
    `UPDATE disputes SET outcome = $2, closed_at = now() WHERE invoice_id = $1 AND closed_at IS NULL RETURNING ${DISPUTE_COLUMNS}`,
    [invoiceId, outcome],
  );
  return closed ?? null;
}
