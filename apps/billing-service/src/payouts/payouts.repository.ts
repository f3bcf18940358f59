import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { centsToDollars, fundsHeld, payoutEntries, payoutReversedEntries, releaseEntries, releaseRefusal, type PayoutStatus } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from '../invoices/invoices.repository';
import { applyInvoiceEvent } from '../payments/payment-intents.repository';
import { closeDisputeFor } from '../transfer/transfer.repository';
import { LedgerRepository } from '../ledger/ledger.repository';
import type { ProviderTransfer } from '../payments/payment-provider';

/** A payout row as stored (billing.payouts): one per invoice, in cents. */
export interface PayoutRecord {
  id: string;
  invoice_id: string;
  seller_id: string;
  gross_cents: number;
  fee_cents: number;
  net_cents: number;
  status: PayoutStatus;
  released_by: string;
  idempotency_key: string;
  provider_transfer_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  paid_at: Date | null;
}

export const PAYOUT_COLUMNS = `id, invoice_id, seller_id, gross_cents::float8 AS gross_cents, fee_cents::float8 AS fee_cents, net_cents::float8 AS net_cents,
  status, released_by, idempotency_key, provider_transfer_id, attempts, last_error, created_at, paid_at`;

/** Who released the funds: an admin (their id), a dispute's decision (its admin), or the inspection period ending. */
export type ReleasedBy = { by: 'admin'; admin_id: string } | { by: 'dispute'; admin_id: string } | { by: 'inspection' };

export type ReleaseClaim =
  | { outcome: 'claimed' | 'already'; payout: PayoutRecord; invoice: InvoiceRecord }
  | { outcome: 'refused'; why: string; invoice: InvoiceRecord | null };

/**
 * The only place that reads and writes billing.payouts (D22). Each change locks its invoice first (the order every
 * payment path uses), so a release, a refund, a dispute and the provider's reconciliation of one invoice are decided
 * one after the other; the ledger transaction of each money movement is written in the same database transaction.
 */
@Injectable()
export class PayoutsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: LedgerRepository,
  ) {}

  async findByInvoice(invoiceId: string): Promise<PayoutRecord | null> {
    const [row]: PayoutRecord[] = await this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = $1`, [invoiceId]);
    return row ?? null;
  }

  async findByTransfer(transferId: string): Promise<PayoutRecord | null> {
    const [row]: PayoutRecord[] = await this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE provider_transfer_id = $1`, [transferId]);
    return row ?? null;
  }

  /** Each invoice's payout, for the admin Payments tab and sellers' invoices. */
  async forInvoices(invoiceIds: string[]): Promise<Map<string, PayoutRecord>> {
    if (invoiceIds.length === 0) return new Map();
    const rows: PayoutRecord[] = await this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = ANY($1::uuid[])`, [[...new Set(invoiceIds)]]);
    return new Map(rows.map((row) => [row.invoice_id, row]));
  }

  /**
   * Releases an invoice's captured funds to its seller, once (D22): under the invoice's lock, the payout is made (to be
   * sent, or waiting for the seller's account), the escrow becomes the seller's payable and the platform's fee in the
   * ledger, a dispute being decided by release closes, and the invoice stays held until the transfer is confirmed. A
   * second release finds the first one's payout (`already`); a release the invoice's state forbids is refused.
   */
  claimRelease(invoiceId: string, releasedBy: ReleasedBy, accountReady: boolean, now: Date, testMode: boolean): Promise<ReleaseClaim> {
    return this.dataSource.transaction(async (manager): Promise<ReleaseClaim> => {
      const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE`, [invoiceId]);
      if (!invoice) return { outcome: 'refused', why: 'Invoice not found', invoice: null };
      const [existing]: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = $1`, [invoiceId]);
      if (existing) return { outcome: 'already', payout: existing, invoice };
      const [open]: unknown[] = await manager.query('SELECT 1 FROM disputes WHERE invoice_id = $1 AND closed_at IS NULL', [invoiceId]);
      // Only a dispute's own decision may release a disputed invoice's funds (ADR 0039).
      const refusal =
        releasedBy.by === 'dispute'
          ? fundsHeld(invoice.status) ? null : `No funds are held for this invoice; it is ${invoice.status.replace(/_/g, ' ')}.`
          : releaseRefusal(invoice, Boolean(open), false);
      if (refusal) return { outcome: 'refused', why: refusal, invoice };
      const [captured]: { id: string }[] = await manager.query(
        `SELECT id FROM payment_intents WHERE invoice_id = $1 AND status = 'succeeded' AND refunded_at IS NULL`,
        [invoiceId],
      );
      if (!captured) return { outcome: 'refused', why: 'The funds of this invoice are not captured yet; try again in a moment.', invoice };
      const payout: PayoutRecord = (
        await manager.query(
          `INSERT INTO payouts (id, invoice_id, seller_id, gross_cents, fee_cents, net_cents, status, released_by, idempotency_key, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${PAYOUT_COLUMNS}`,
          [
            randomUUID(),
            invoiceId,
            invoice.seller_id,
            invoice.amount_cents,
            invoice.fee_cents,
            invoice.payout_cents,
            accountReady ? 'pending' : 'waiting_for_account',
            releasedBy.by === 'inspection' ? 'inspection' : `${releasedBy.by}:${releasedBy.admin_id}`,
            `payout-${invoiceId}`,
            now,
          ],
        )
      )[0];
      await this.ledger.record(manager, {
        kind: 'release',
        key: `release:${invoiceId}`,
        invoice_id: invoiceId,
        payout_id: payout.id,
        entries: releaseEntries(invoice.seller_id, invoice.amount_cents, invoice.fee_cents),
      });
      await applyInvoiceEvent(manager, invoiceId, invoice.status, 'funds_released');
      if (invoice.status === 'disputed') await closeDisputeFor(manager, invoice, 'funds_released');
      await manager.query('UPDATE invoices SET release_started_at = COALESCE(release_started_at, $2) WHERE id = $1', [invoiceId, now]);
      if (!accountReady) await this.tellWaiting(manager, payout, invoice, now, testMode);
      const [fresh]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1`, [invoiceId]);
      return { outcome: 'claimed', payout, invoice: fresh };
    });
  }

  /**
   * Records a transfer the provider made for a payout (D22): the payout is paid, the seller's payable leaves the
   * platform's balance in the ledger, the invoice is paid and payout.sent tells both parties. A second confirmation
   * of the same transfer changes nothing; false when the payout was already paid.
   */
  markSent(payoutId: string, transfer: ProviderTransfer, testMode: boolean): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [ref]: { invoice_id: string }[] = await manager.query('SELECT invoice_id FROM payouts WHERE id = $1', [payoutId]);
      if (!ref) return false;
      const [invoice]: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = $1 FOR UPDATE`, [ref.invoice_id]);
      const [payout]: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 FOR UPDATE`, [payoutId]);
      if (payout.status === 'paid' || payout.status === 'reversed') return false;
      if (transfer.amount_cents !== payout.net_cents) throw new Error(`Transfer ${transfer.id} of ${transfer.amount_cents} does not match payout ${payoutId} of ${payout.net_cents}`);
      const paidAt = transfer.created_at;
      await manager.query(
        `UPDATE payouts SET status = 'paid', provider_transfer_id = $2, paid_at = $3, last_error = NULL, updated_at = now() WHERE id = $1`,
        [payoutId, transfer.id, paidAt],
      );
      await this.ledger.record(manager, {
        kind: 'payout',
        key: `payout:${payoutId}`,
        invoice_id: invoice.id,
        payout_id: payoutId,
        provider_ref: transfer.balance?.id ?? null,
        provider_at: transfer.balance?.created_at ?? null,
        entries: payoutEntries(payout.seller_id, payout.net_cents),
      });
      await applyInvoiceEvent(manager, invoice.id, invoice.status, 'payout_sent');
      await appendEvent(manager, 'payout.sent', {
        payout_id: payoutId,
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        buyer_id: invoice.buyer_id,
        seller_id: invoice.seller_id,
        website_title: invoice.website_title,
        gross: centsToDollars(payout.gross_cents),
        fee: centsToDollars(payout.fee_cents),
        net: centsToDollars(payout.net_cents),
        sent_at: new Date(paidAt).toISOString(),
        test_mode: testMode,
      });
      return true;
    });
  }

  /** A transfer the provider reversed: the money is back in the platform's balance and owed to the seller again. */
  markReversed(payoutId: string, transfer: ProviderTransfer): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [payout]: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 FOR UPDATE`, [payoutId]);
      if (!payout || payout.status !== 'paid') return false;
      await manager.query(`UPDATE payouts SET status = 'reversed', updated_at = now() WHERE id = $1`, [payoutId]);
      await this.ledger.record(manager, {
        kind: 'payout_reversed',
        key: `payout_reversed:${payoutId}`,
        invoice_id: payout.invoice_id,
        payout_id: payoutId,
        provider_ref: transfer.reversal_balance?.id ?? null,
        provider_at: transfer.reversal_balance?.created_at ?? null,
        entries: payoutReversedEntries(payout.seller_id, payout.net_cents),
      });
      return true;
    });
  }

  /**
   * A send that failed (the provider slow, down, or refusing): counted, its error kept; the funds stay held. A timeout
   * keeps the idempotency key, so the retry is the same transfer; the provider's refusal of the account (no transfer was
   * made) takes a new key, since Stripe would replay the refusal under the old one for a day (ADR 0063).
   */
  async markFailed(payoutId: string, error: string, refusedAccount: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE payouts SET attempts = attempts + 1, last_error = $2, updated_at = now(),
         status = CASE WHEN $3 THEN 'waiting_for_account' ELSE status END,
         idempotency_key = CASE WHEN $3 THEN 'payout-' || invoice_id || '-' || (attempts + 1) ELSE idempotency_key END
       WHERE id = $1 AND status IN ('pending', 'waiting_for_account')`,
      [payoutId, error.slice(0, 500), refusedAccount],
    );
  }

  /** The seller's account is not (yet) able to take payouts: the payout waits for it, its key unchanged (nothing was asked). */
  async markWaiting(payoutId: string, why: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE payouts SET status = 'waiting_for_account', last_error = $2, updated_at = now() WHERE id = $1 AND status IN ('pending', 'waiting_for_account')`,
      [payoutId, why],
    );
  }

  /** A seller's account can take payouts now: their waiting payouts are to be sent. */
  async readyFor(sellerId: string): Promise<PayoutRecord[]> {
    const [rows]: [PayoutRecord[], number] = await this.dataSource.query(
      `UPDATE payouts SET status = 'pending', updated_at = now() WHERE seller_id = $1 AND status IN ('waiting_for_account', 'pending')
       RETURNING ${PAYOUT_COLUMNS}`,
      [sellerId],
    );
    return rows;
  }

  /** Payouts to send (new, or retried after a failure), oldest first. */
  pending(limit: number): Promise<PayoutRecord[]> {
    return this.dataSource.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE status = 'pending' ORDER BY created_at LIMIT $1`, [limit]);
  }

  /**
   * Held invoices whose funds go out by themselves now (D22): the transfer verified or received `inspectionDays` ago,
   * captured or not, with no open dispute and no payout yet, oldest first.
   */
  async dueForRelease(now: Date, inspectionDays: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT i.id FROM invoices i
       WHERE i.status = 'payment_authorized' AND (i.transfer_verified_at IS NOT NULL OR i.transfer_received_at IS NOT NULL)
         AND LEAST(i.transfer_verified_at, i.transfer_received_at) <= $1::timestamptz - make_interval(days => $2)
         AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.invoice_id = i.id)
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.invoice_id = i.id AND d.closed_at IS NULL)
       ORDER BY LEAST(i.transfer_verified_at, i.transfer_received_at) LIMIT $3`,
      [now, inspectionDays, limit],
    );
    return rows.map((row) => row.id);
  }

  /** A seller's sales whose money is held or was released, newest first (their Payouts section). */
  forSeller(sellerId: string, limit: number): Promise<(PayoutRecord & { invoice_number: string; website_title: string; invoice_created_at: Date; held: boolean })[]> {
    return this.dataSource.query(
      `SELECT p.id, i.id AS invoice_id, i.seller_id, COALESCE(p.gross_cents, i.amount_cents)::float8 AS gross_cents,
         COALESCE(p.fee_cents, i.fee_cents)::float8 AS fee_cents, COALESCE(p.net_cents, i.payout_cents)::float8 AS net_cents,
         p.status, p.created_at, p.paid_at, i.invoice_number, i.website_title, i.created_at AS invoice_created_at, p.id IS NULL AS held
       FROM invoices i LEFT JOIN payouts p ON p.invoice_id = i.id
       WHERE i.seller_id = $1 AND (p.id IS NOT NULL OR i.status IN ('payment_authorized', 'disputed'))
       ORDER BY COALESCE(p.created_at, i.created_at) DESC, i.id LIMIT $2`,
      [sellerId, limit],
    );
  }

  /** payout.waiting for the seller's email, once per payout, in the release's transaction. */
  private async tellWaiting(manager: EntityManager, payout: PayoutRecord, invoice: InvoiceRecord, now: Date, testMode: boolean): Promise<void> {
    const [account]: { status: string }[] = await manager.query('SELECT status FROM payout_accounts WHERE user_id = $1', [invoice.seller_id]);
    await manager.query('UPDATE payouts SET waiting_told_at = $2 WHERE id = $1', [payout.id, now]);
    await appendEvent(manager, 'payout.waiting', {
      payout_id: payout.id,
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      seller_id: invoice.seller_id,
      website_title: invoice.website_title,
      net: centsToDollars(payout.net_cents),
      account_status: account?.status ?? 'not_started',
      at: now.toISOString(),
      test_mode: testMode,
    });
  }
}
