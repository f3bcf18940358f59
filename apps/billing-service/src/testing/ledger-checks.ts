import type { DataSource } from 'typeorm';

/** The ledger checked against the state it records (D22): what tests assert after every money path. */
export interface LedgerState {
  /** Transactions whose lines do not sum to zero (the database refuses them: always 0). */
  unbalanced: number;
  /** The sum of every line of the ledger, in cents: 0 when no cent was created or lost. */
  total: number;
  escrowHeldCents: number;
  heldInvoicesCents: number;
  /** Escrow held equals the amounts of invoices whose funds are held and not yet released. */
  escrowMatchesHeldInvoices: boolean;
  /** Sellers' payables equal the nets of payouts decided and not yet sent (or reversed). */
  payablesMatchUnsentPayouts: boolean;
  /** Holds on cards equal the amounts of held invoices whose payment is not captured. */
  holdsMatchUncaptured: boolean;
  /** Refunds decided and not yet paid by the provider (the provider pays at once here: 0). */
  refundsOwedCents: number;
  /** The platform's balance in the ledger equals the sandbox provider's: every cent it moved is in the ledger. */
  platformBalanceMatchesProvider: boolean;
}

/** Reads the ledger's balances and the invoices, payouts and payments they must match. */
export async function ledgerState(ds: DataSource): Promise<LedgerState> {
  const [row] = await ds.query(`
    SELECT
      (SELECT count(*)::int FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_cents) <> 0) u) AS unbalanced,
      (SELECT coalesce(sum(amount_cents), 0)::float8 FROM ledger_entries) AS total,
      (SELECT coalesce(-sum(amount_cents), 0)::float8 FROM ledger_entries WHERE account = 'escrow_held') AS escrow,
      (SELECT coalesce(sum(amount_cents), 0)::float8 FROM invoices i
         WHERE i.status IN ('payment_authorized', 'disputed') AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.invoice_id = i.id)) AS held,
      (SELECT coalesce(-sum(amount_cents), 0)::float8 FROM ledger_entries WHERE account = 'seller_payable') AS payable,
      (SELECT coalesce(sum(net_cents), 0)::float8 FROM payouts WHERE status IN ('waiting_for_account', 'pending', 'reversed')) AS unsent,
      (SELECT coalesce(sum(amount_cents), 0)::float8 FROM ledger_entries WHERE account = 'card_holds') AS holds,
      (SELECT coalesce(sum(p.amount_cents), 0)::float8 FROM payment_intents p WHERE p.status = 'requires_capture') AS uncaptured,
      (SELECT coalesce(-sum(amount_cents), 0)::float8 FROM ledger_entries WHERE account = 'refunds') AS refunds,
      (SELECT coalesce(sum(amount_cents), 0)::float8 FROM ledger_entries WHERE account = 'platform_balance') AS platform,
      (SELECT coalesce(sum(net_cents), 0)::float8 FROM sandbox_balance_transactions) AS provider`);
  return {
    unbalanced: row.unbalanced,
    total: row.total,
    escrowHeldCents: row.escrow,
    heldInvoicesCents: row.held,
    escrowMatchesHeldInvoices: row.escrow === row.held,
    payablesMatchUnsentPayouts: row.payable === row.unsent,
    holdsMatchUncaptured: row.holds === row.uncaptured,
    refundsOwedCents: row.refunds,
    platformBalanceMatchesProvider: row.platform === row.provider,
  };
}
