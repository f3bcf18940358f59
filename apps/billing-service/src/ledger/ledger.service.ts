import { Injectable } from '@nestjs/common';
import type { Actor, InvoiceLedgerDto, LedgerOverviewDto, ReconciliationResultDto } from '@market/contracts';
import { centsToDollars, LEDGER_ACCOUNT_LABELS, LEDGER_ACCOUNTS } from '@market/domain';
import { notFound, requireAdmin, unavailable } from '@market/server-kit';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { LedgerRepository } from './ledger.repository';
import { ReconciliationService } from './reconciliation.service';
import { ReconciliationSweep } from './reconciliation.sweep';

const DIFFERENCES_SHOWN = 100;
const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

/** The admin Ledger tab (D22, ADR 0063): balances, an invoice's trail, and a reconciliation on demand. Real admins only. */
@Injectable()
export class LedgerService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly reconciliation: ReconciliationService,
    private readonly sweep: ReconciliationSweep,
    private readonly invoices: InvoicesRepository,
  ) {}

  async overview(actor: Actor | null): Promise<LedgerOverviewDto> {
    requireAdmin(actor);
    const [{ balances, transactions, unbalanced }, state, differences] = await Promise.all([
      this.ledger.balances(),
      this.reconciliation.state(),
      this.reconciliation.openDifferences(DIFFERENCES_SHOWN),
    ]);
    const total = Object.values(balances).reduce((sum, cents) => sum + cents, 0);
    return {
      balanced: unbalanced === 0 && total === 0,
      accounts: LEDGER_ACCOUNTS.map((account) => ({ account, label: LEDGER_ACCOUNT_LABELS[account], balance: centsToDollars(balances[account]) })),
      unreconciled: state.unreconciled,
      last_reconciled_at: iso(state.last_reconciled_at),
      transactions,
      differences: differences.map((d) => ({
        id: d.id,
        provider_ref: d.provider_ref,
        kind: d.kind,
        ledger_amount: d.ledger_cents === null ? null : centsToDollars(d.ledger_cents),
        provider_amount: d.provider_cents === null ? null : centsToDollars(d.provider_cents),
        day: d.day,
        found_at: new Date(d.found_at).toISOString(),
      })),
    };
  }

  async invoiceTrail(actor: Actor | null, invoiceId: string): Promise<InvoiceLedgerDto> {
    requireAdmin(actor);
    const invoice = await this.invoices.findById(invoiceId);
    if (!invoice) throw notFound('Invoice not found');
    const transactions = await this.ledger.forInvoice(invoiceId);
    return {
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      transactions: transactions.map((t) => ({
        id: t.id,
        kind: t.kind,
        occurred_at: new Date(t.occurred_at).toISOString(),
        provider_ref: t.provider_ref,
        entries: t.entries.map((e) => ({ account: e.account, party_id: e.party_id, amount: centsToDollars(Number(e.amount_cents)) })),
      })),
    };
  }

  async reconcile(actor: Actor | null): Promise<ReconciliationResultDto> {
    requireAdmin(actor);
    const run = await this.sweep.sweep();
    if (!run) throw unavailable('The reconciliation could not run just now (the provider or the database did not answer, or it is running elsewhere); try again shortly.');
    return {
      days: Math.round((run.window_to.getTime() - run.window_from.getTime()) / 86_400_000),
      provider_transactions: run.provider_transactions,
      ledger_transactions: run.ledger_transactions,
      differences: run.differences,
      unreconciled: run.unreconciled,
    };
  }
}
