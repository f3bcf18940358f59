import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { centsToDollars, fundsHeld, releaseEntries, releaseRefusal } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import type { EntityManager } from 'typeorm';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import { LedgerRepository } from '../ledger/ledger.repository';
import { closeDisputeFor } from '../transfer/close-dispute';
import { PayoutsRepository, type PayoutRecord, type ReleaseClaim, type ReleasedBy } from './payouts.repository';

/**
 * Releasing held funds to sellers (D22, ADR 0070). Each release locks its invoice first (the order every payment path
 * uses), so a release, a refund, a dispute and the provider's reconciliation of one invoice are decided one after the
 * other; the ledger transaction of each money movement is written in the same database transaction.
 */
@Injectable()
export class ReleaseFunds {
  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  /** One invoice's release (claimReleases for one). */
  async claimRelease(invoiceId: string, releasedBy: ReleasedBy, accountReady: boolean, testMode: boolean): Promise<ReleaseClaim> {
    const claims = await this.claimReleases([invoiceId], releasedBy, () => accountReady, testMode);
    return claims.get(invoiceId) as ReleaseClaim;
  }

  /**
   * Releases invoices' captured funds to their sellers, once each, in one transaction: under the invoices' locks each
   * gets its payout (to be sent, or waiting for the seller's account), the escrow becomes the seller's payable and the
   * platform's fee in the ledger, a dispute decided by release closes, and the invoice stays held until the transfer is
   * confirmed. An invoice released before answers its payout (`already`); one whose state forbids it is refused with why.
   */
  claimReleases(invoiceIds: string[], releasedBy: ReleasedBy, accountReady: (sellerId: string) => boolean, testMode: boolean): Promise<Map<string, ReleaseClaim>> {
    return this.payouts.transaction(async (manager) => {
      const ids = [...new Set(invoiceIds)].sort();
      const invoices = await this.payouts.lockInvoices(ids, manager);
      const paid = await this.payouts.payoutsOf(ids, manager);
      const disputed = await this.payouts.openDisputes(ids, manager);
      const charges = await this.payouts.capturedCharges(ids, manager);
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
        else toClaim.push({ invoice, payout: newPayout(invoice, releasedBy, accountReady(invoice.seller_id), charges.get(invoice.id) ?? null, new Date()) });
      }
      if (toClaim.length === 0) return claims;
      // Recorded at the time it happens (billing's clock, which a test may move ahead, decides when to release, not this).
      const writtenAt = new Date();
      await this.payouts.insertPayouts(toClaim.map((c) => c.payout), manager);
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
      await this.payouts.markReleasing(toClaim.map((c) => c.invoice.id), writtenAt, manager);
      for (const { invoice, payout } of toClaim) {
        if (invoice.status === 'disputed') await closeDisputeFor(manager, invoice, 'funds_released');
        if (payout.status === 'waiting_for_account') await this.tellWaiting(manager, payout, invoice, writtenAt, testMode);
        claims.set(invoice.id, { outcome: 'claimed', payout, invoice: { ...invoice, status: 'payment_authorized', release_started_at: invoice.release_started_at ?? writtenAt } });
      }
      return claims;
    });
  }

  /** payout.waiting for the seller's email, once per payout, in the release's transaction. */
  private async tellWaiting(manager: EntityManager, payout: PayoutRecord, invoice: InvoiceRecord, now: Date, testMode: boolean): Promise<void> {
    const status = await this.payouts.accountStatusOf(invoice.seller_id, manager);
    await this.payouts.markWaitingTold(payout.id, now, manager);
    await appendEvent(manager, 'payout.waiting', {
      payout_id: payout.id,
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      seller_id: invoice.seller_id,
      website_title: invoice.website_title,
      net: centsToDollars(payout.net_cents),
      account_status: status ?? 'not_started',
      at: now.toISOString(),
      test_mode: testMode,
    });
  }
}

/** A new payout of an invoice's sale price less the success fee, keyed by the invoice so it is made once (D22). */
function newPayout(invoice: InvoiceRecord, releasedBy: ReleasedBy, ready: boolean, charge: string | null, now: Date): PayoutRecord {
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
