import type { LedgerDifferenceDto, LedgerOverviewDto } from '@market/contracts';
import { differenceKindLabel, ledgerMoney } from './admin-ledger';
import { when } from './admin-dates';

/** Each ledger account with its balance as the API gives it: debits positive, so credits read negative. */
export function LedgerAccounts({ accounts }: { accounts: LedgerOverviewDto['accounts'] }) {
  return (
    <section className="ledger-block" aria-labelledby="ledger-accounts-title">
      <h3 id="ledger-accounts-title">Accounts</h3>
      <p className="muted small">
        Debits read positive and credits negative, so what the platform holds or owes (escrow, sellers&apos; payables, refunds) and the fees it earned show
        as negative amounts.
      </p>
      <div className="table-wrap">
        <table className="data ledger-table">
          <thead>
            <tr>
              <th>Account</th>
              <th className="ledger-amount">Balance</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((row) => (
              <tr key={row.account} data-testid="ledger-account" data-account={row.account}>
                <td>{row.label}</td>
                <td className="ledger-amount">{ledgerMoney(row.balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The differences the reconciliation found and nobody has settled, newest first. */
export function LedgerDifferences({ differences }: { differences: LedgerDifferenceDto[] }) {
  return (
    <section className="ledger-block" aria-labelledby="ledger-differences-title">
      <h3 id="ledger-differences-title">Open differences</h3>
      {differences.length === 0 ? (
        <p className="muted" data-testid="ledger-no-differences">
          No open differences: the ledger matches the provider&apos;s balance transactions.
        </p>
      ) : (
        <div className="table-wrap ledger-differences-wrap">
          <table className="data ledger-table ledger-differences">
            <thead>
              <tr>
                <th>Provider reference</th>
                <th>Difference</th>
                <th className="ledger-amount">Ledger</th>
                <th className="ledger-amount">Provider</th>
                <th>Day</th>
              </tr>
            </thead>
            <tbody>
              {differences.map((row) => (
                <tr key={row.id} data-testid="ledger-difference">
                  <td data-label="Provider reference" className="ledger-ref">
                    {row.provider_ref}
                  </td>
                  <td data-label="Difference">{differenceKindLabel(row.kind)}</td>
                  <td data-label="Ledger" className="ledger-amount">
                    {ledgerMoney(row.ledger_amount)}
                  </td>
                  <td data-label="Provider" className="ledger-amount">
                    {ledgerMoney(row.provider_amount)}
                  </td>
                  <td data-label="Day" title={`Found ${when(row.found_at)}`}>
                    {row.day}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
