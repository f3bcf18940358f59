import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { centsToDollars, fundsHeld, releaseEntries, releaseRefusal, type PayoutStatus } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import { INVOICE_COLUMNS, type InvoiceRecord } from '../invoices/invoices.repository';
import { closeDisputeFor } from '../transfer/transfer.repository';
import { LedgerRepository } from '../ledger/ledger.repository';

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
  source_transaction: string | null;
  provider_transfer_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  paid_at: Date | null;
}

export const PAYOUT_COLUMNS = `id, invoice_id, seller_id, gross_cents::float8 AS gross_cents, fee_cents::float8 AS fee_cents, net_cents::float8 AS net_cents,
  status, released_by, idempotency_key, source_transaction, provider_transfer_id, attempts, last_error, created_at, paid_at`;

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

  /** One invoice's release (claimReleases for one). */
  async claimRelease(invoiceId: string, releasedBy: ReleasedBy, accountReady: boolean, testMode: boolean): Promise<ReleaseClaim> {
    const claims = await this.claimReleases([invoiceId], releasedBy, () => accountReady, testMode);
    return claims.get(invoiceId) as ReleaseClaim;
  }

  /**
   * Releases invoices' captured funds to their sellers, once each (D22), in one transaction: under the invoices' locks
   * (taken in id order, so two batches never deadlock) each gets its payout (to be sent, or waiting for the seller's
   * account), the escrow becomes the seller's payable and the platform's fee in the ledger, a dispute decided by
   * release closes, and the invoice stays held until the transfer is confirmed. An invoice released before answers its
   * payout (`already`); one whose state forbids it is refused with why.
   */
  claimReleases(
    invoiceIds: string[],
    releasedBy: ReleasedBy,
    accountReady: (sellerId: string) => boolean,
    testMode: boolean,
  ): Promise<Map<string, ReleaseClaim>> {
    return this.dataSource.transaction(async (manager) => {
      const ids = [...new Set(invoiceIds)].sort();
      const invoices: InvoiceRecord[] = await manager.query(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [ids]);
      const existing: PayoutRecord[] = await manager.query(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE invoice_id = ANY($1::uuid[])`, [ids]);
      const open: { invoice_id: string }[] = await manager.query('SELECT invoice_id FROM disputes WHERE invoice_id = ANY($1::uuid[]) AND closed_at IS NULL', [ids]);
      const captured: { invoice_id: string; charge_id: string | null }[] = await manager.query(
        `SELECT invoice_id, charge_id FROM payment_intents WHERE invoice_id = ANY($1::uuid[]) AND status = 'succeeded' AND refunded_at IS NULL`,
        [ids],
      );
      const paid = new Map(existing.map((p) => [p.invoice_id, p]));
      const disputed = new Set(open.map((d) => d.invoice_id));
      const charges = new Map(captured.map((c) => [c.invoice_id, c.charge_id]));
      const claims = new Map<string, ReleaseClaim>(ids.map((id) => [id, { outcome: 'refused', why: 'Invoice not found', invoice: null }]));
      const toClaim: { invoice: InvoiceRecord; payout: PayoutRecord }[] = [];
      for (const invoice of invoices) {
        const payout = paid.get(invoice.id);
        if (payout) {
          claims.set(invoice.id, { outcome: 'already', payout, invoice });
          continue;
        }
        // Only a dispute's own decision may release a disputed invoice's funds (ADR 0039).
        const refusal =
          releasedBy.by === 'dispute'
            ? fundsHeld(invoice.status) ? null : `No funds are held for this invoice; it is ${invoice.status.replace(/_/g, ' ')}.`
            : releaseRefusal(invoice, disputed.has(invoice.id), false);
        if (refusal) claims.set(invoice.id, { outcome: 'refused', why: refusal, invoice });
        // An admin's refund claimed it first (D22): the money goes back to the buyer, not to the seller.
        else if (invoice.refund_started_at) claims.set(invoice.id, { outcome: 'refused', why: 'A refund of this invoice is under way, so its funds cannot be released.', invoice });
        else if (!charges.has(invoice.id)) claims.set(invoice.id, { outcome: 'refused', why: 'The funds of this invoice are not captured yet; try again in a moment.', invoice });
        else toClaim.push({ invoice, payout: this.newPayout(invoice, releasedBy, accountReady(invoice.seller_id), charges.get(invoice.id) ?? null, new Date()) });
      }
      if (toClaim.length === 0) return claims;
      // Recorded at the time it happens (billing's clock, which a test may move ahead, decides when to release, not this).
      const writtenAt = new Date();
      await this.insertPayouts(manager, toClaim.map((c) => c.payout));
      await this.ledger.recordMany(
        manager,
        toClaim.map(({ invoice, payout }) => ({
          kind: 'release' as const,
          key: `release:${invoice.id}`,
          invoice_id: invoice.id,
          payout_id: payout.id,
          entries: releaseEntries(invoice.seller_id, invoice.amount_cents, invoice.fee_cents),
        })),
      );
      // funds_released: held (disputed or not) becomes payment_authorized with the release mark; nothing else changes.
      await manager.query(
        `UPDATE invoices SET status = 'payment_authorized', release_started_at = COALESCE(release_started_at, $2), updated_at = now() WHERE id = ANY($1::uuid[])`,
        [toClaim.map((c) => c.invoice.id), writtenAt],
      );
      for (const { invoice, payout } of toClaim) {
        if (invoice.status === 'disputed') await closeDisputeFor(manager, invoice, 'funds_released');
        if (payout.status === 'waiting_for_account') await this.tellWaiting(manager, payout, invoice, writtenAt, testMode);
        claims.set(invoice.id, { outcome: 'claimed', payout, invoice: { ...invoice, status: 'payment_authorized', release_started_at: invoice.release_started_at ?? writtenAt } });
      }
      return claims;
    });
  }





  private newPayout(invoice: InvoiceRecord, releasedBy: ReleasedBy, ready: boolean, charge: string | null, now: Date): PayoutRecord {
    return {
      id: randomUUID(),
      invoice_id: invoice.id,
      seller_id: invoice.seller_id,
      gross_cents: invoice.amount_cents,
      fee_cents: invoice.fee_cents,
      net_cents: invoice.payout_cents,
      status: ready ? 'pending' : 'waiting_for_account',
      released_by: releasedBy.by === 'inspection' ? 'inspection' : `${releasedBy.by}:${releasedBy.admin_id}`,
      idempotency_key: `payout-${invoice.id}`,
      source_transaction: charge,
      provider_transfer_id: null,
      attempts: 0,
      last_error: null,
      created_at: now,
      paid_at: null,
    };
  }

  private async insertPayouts(manager: EntityManager, payouts: PayoutRecord[]): Promise<void> {
    const col = <K extends keyof PayoutRecord>(key: K) => payouts.map((p) => p[key]);
    await manager.query(
      `INSERT INTO payouts (id, invoice_id, seller_id, gross_cents, fee_cents, net_cents, status, released_by, idempotency_key, source_transaction, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])`,
      [col('id'), col('invoice_id'), col('seller_id'), col('gross_cents'), col('fee_cents'), col('net_cents'), col('status'), col('released_by'), col('idempotency_key'), col('source_transaction'), col('created_at')],
    );
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
