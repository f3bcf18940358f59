import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { InvoiceLedgerDto } from '@market/contracts';
import { LEDGER_ACCOUNT_LABELS } from '@market/domain';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { errorDetail } from '../../lib/error-detail';
import { when } from './admin-dates';
import { ledgerKindLabel, ledgerMoney, parseInvoiceId, shortId } from './admin-ledger';
import { useInvoiceLedgerQuery } from './ledger.api';

/**
 * An invoice's money trail (D22): the id typed here, or brought by `?invoice=` from a Payments row, shows every ledger
 * transaction the invoice caused, oldest first. The id lives in the address, so the trail can be linked and reloaded.
 */
export function InvoiceTrail() {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get('invoice') ?? '';
  const parsed = fromUrl ? parseInvoiceId(fromUrl) : null;
  const id = parsed?.ok ? parsed.id : null;
  // currentData: the trail of the id asked for now, never the previous id's while a new one loads.
  const { currentData: data, error, isFetching, refetch } = useInvoiceLedgerQuery(id ?? '', { skip: !id });

  const show = (invoiceId: string) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'ledger');
    next.set('invoice', invoiceId);
    setParams(next);
  };
  const notFound = (error as { status?: unknown } | undefined)?.status === 404;
  return (
    <section className="ledger-block ledger-trail" aria-labelledby="ledger-trail-title">
      <h3 id="ledger-trail-title">Invoice trail</h3>
      {/* Keyed by the address's id, so a Payments row's Ledger link refills the field while the tab is open. */}
      <TrailForm key={fromUrl} initial={fromUrl} urlProblem={parsed && !parsed.ok ? parsed.error : null} busy={isFetching} onShow={show} />
      {id && isFetching && !data && <LoadingState text="Loading the invoice's trail..." />}
      {id && error && (notFound ? <p className="alert alert-warning">No invoice has this id.</p> : <LoadError onRetry={() => void refetch()}>{errorDetail(error, "Could not load the invoice's trail.")}</LoadError>)}
      {id && data && !error && <Trail trail={data} />}
    </section>
  );
}

interface TrailFormProps {
  initial: string;
  urlProblem: string | null;
  busy: boolean;
  onShow: (invoiceId: string) => void;
}

function TrailForm({ initial, urlProblem, busy, onShow }: TrailFormProps) {
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(urlProblem);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseInvoiceId(text);
    setProblem(parsed.ok ? null : parsed.error);
    if (parsed.ok) onShow(parsed.id);
  };
  return (
    <form className="ledger-trail-form" onSubmit={submit} noValidate>
      <label className="field">
        <span>Invoice id</span>
        <input
          name="invoice"
          value={text}
          placeholder="6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'ledger-trail-problem' : undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <button type="submit" className="btn btn-secondary btn-small" disabled={busy}>
        Show trail
      </button>
      {problem && (
        <p className="field-error" id="ledger-trail-problem">
          {problem}
        </p>
      )}
    </form>
  );
}

function Trail({ trail }: { trail: InvoiceLedgerDto }) {
  return (
    <div data-testid="ledger-trail">
      <h4 className="ledger-trail-title">Invoice {trail.invoice_number}</h4>
      {trail.transactions.length === 0 && <p className="muted">No money has moved for this invoice yet.</p>}
      {trail.transactions.map((tx) => (
        <article key={tx.id} className="ledger-trail-tx" data-testid="ledger-trail-transaction" data-kind={tx.kind}>
          <header>
            <strong>{ledgerKindLabel(tx.kind)}</strong>
            <span className="muted small">{when(tx.occurred_at)}</span>
            {tx.provider_ref && <span className="ledger-ref small">{tx.provider_ref}</span>}
          </header>
          <div className="table-wrap">
            <table className="data ledger-table">
              <thead>
                <tr>
                  <th>Account</th>
                  <th>Party</th>
                  <th className="ledger-amount">Amount</th>
                </tr>
              </thead>
              <tbody>
                {tx.entries.map((entry, index) => (
                  <tr key={`${entry.account}-${index}`}>
                    <td>{LEDGER_ACCOUNT_LABELS[entry.account] ?? entry.account}</td>
                    <td className="ledger-party" title={entry.party_id ?? undefined}>
                      {shortId(entry.party_id)}
                    </td>
                    <td className="ledger-amount">{ledgerMoney(entry.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </article>
      ))}
    </div>
  );
}
