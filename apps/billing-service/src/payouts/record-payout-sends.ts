import { Injectable } from '@nestjs/common';
import { centsToDollars, payoutEntries, payoutReversedEntries } from '@market/domain';
import { appendEvent } from '@market/server-kit';
import type { InvoiceRecord } from '../invoices/invoices.repository';
import { LedgerRepository } from '../ledger/ledger.repository';
import type { ProviderTransfer } from '../payments/payment-provider';
import { PayoutSendsRepository } from './payout-sends.repository';

/**
 * What a provider's transfer does to the books (D22, ADR 0070): a payout made is paid, the seller's payable leaves the
 * platform's balance in the ledger, the invoice is paid and payout.sent tells both parties (sale.completed, when the
 * invoice turned paid now, opens its reviews: D23); a reversal books the money
 * back as owed to the seller. Each change locks the invoice first, then the payout, as every payment path does.
 */
@Injectable()
export class RecordPayoutSends {
  constructor(
    private readonly rows: PayoutSendsRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  /** One transfer's confirmation (markSentMany for one); false when the payout was already paid. */
  async markSent(payoutId: string, transfer: ProviderTransfer, testMode: boolean): Promise<boolean> {
    return (await this.markSentMany([{ payoutId, transfer }], testMode)) === 1;
  }

  /**
   * Records transfers the provider made for payouts, in one transaction. A second confirmation of the same transfer
   * changes nothing; answers how many were recorded now.
   */
  markSentMany(sent: { payoutId: string; transfer: ProviderTransfer }[], testMode: boolean): Promise<number> {
    if (sent.length === 0) return Promise.resolve(0);
    return this.rows.transaction(async (manager) => {
      const byPayout = new Map(sent.map((s) => [s.payoutId, s.transfer]));
      const { invoices, payouts } = await this.rows.lockWithInvoices([...byPayout.keys()], manager);
      const invoiceOf = new Map(invoices.map((i) => [i.id, i]));
      const open = payouts.filter((p) => p.status !== 'paid' && p.status !== 'reversed');
      // A transfer that does not carry exactly the payout's net is never recorded as it: a person must look (the
      // reconciliation shows the transfer too); the others of the batch go on.
      const mismatched = open.filter((p) => (byPayout.get(p.id) as ProviderTransfer).amount_cents !== p.net_cents);
      for (const payout of mismatched) {
        const transfer = byPayout.get(payout.id) as ProviderTransfer;
        await this.rows.noteError(payout.id, `Transfer ${transfer.id} of ${transfer.amount_cents} cents does not match this payout's ${payout.net_cents}: check it at the provider`, manager);
      }
      const due = open.filter((p) => !mismatched.includes(p));
      if (due.length === 0) return 0;
      const transfers = due.map((p) => byPayout.get(p.id) as ProviderTransfer);
      await this.rows.markPaid(due.map((p) => p.id), transfers, manager);
      await this.ledger.recordMany(
        manager,
        due.map((payout, i) => ({
          kind: 'payout' as const,
          key: `payout:${payout.id}`,
          invoice_id: payout.invoice_id,
          payout_id: payout.id,
          provider_ref: transfers[i].balance?.id ?? null,
          provider_at: transfers[i].balance?.created_at ?? null,
          entries: payoutEntries(payout.seller_id, payout.net_cents),
        })),
      );
      // An invoice refunded meanwhile keeps its state; the reconciliation shows the transfer.
      const paid = await this.rows.markInvoicesPaid(due.map((p) => p.invoice_id), manager);
      for (const [i, payout] of due.entries()) {
        const invoice = invoiceOf.get(payout.invoice_id) as InvoiceRecord;
        const paidAt = paid.get(invoice.id);
        // Only a sale whose money reached the seller through us counts and may be reviewed (D23, ADR 0083).
        if (paidAt) {
          await appendEvent(manager, 'sale.completed', {
            invoice_id: invoice.id,
            invoice_number: invoice.invoice_number,
            listing_id: invoice.listing_id,
            buyer_id: invoice.buyer_id,
            seller_id: invoice.seller_id,
            website_title: invoice.website_title,
            completed_at: paidAt.toISOString(),
          });
        }
        await appendEvent(manager, 'payout.sent', {
          payout_id: payout.id,
          invoice_id: invoice.id,
          invoice_number: invoice.invoice_number,
          buyer_id: invoice.buyer_id,
          seller_id: invoice.seller_id,
          website_title: invoice.website_title,
          gross: centsToDollars(payout.gross_cents),
          fee: centsToDollars(payout.fee_cents),
          net: centsToDollars(payout.net_cents),
          sent_at: new Date(transfers[i].created_at).toISOString(),
          test_mode: testMode,
        });
      }
      return due.length;
    });
  }

  /** A transfer the provider reversed: the money is back in the platform's balance and owed to the seller again. */
  markReversed(payoutId: string, transfer: ProviderTransfer): Promise<boolean> {
    return this.rows.transaction(async (manager) => {
      const payout = await this.rows.lockPayout(payoutId, manager);
      if (!payout || payout.status !== 'paid') return false;
      await this.rows.markReversed(payoutId, manager);
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
}
