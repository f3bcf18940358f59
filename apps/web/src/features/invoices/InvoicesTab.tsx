import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { InvoiceDto } from '@market/contracts';
import {
  invoicesApi,
  useConfirmReceivedMutation,
  useInvoicePdfUrlMutation,
  useInvoicesQuery,
  useMarkInvoicePaidMutation,
  useMarkTransferStartedMutation,
} from '../../api/invoices.api';
import { useAppDispatch } from '../../lib/store-hooks';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { dashboardRows, listLoadFailed } from '../../lib/dashboard-lists';
import { errorDetail } from '../../lib/error-detail';
import { InvoiceRow, invoiceRowId, type RowNotice } from './InvoiceRow';
import { NO_INVOICES_TEXT, payTarget, performMarkPaid, performPdfDownload } from './invoices';
import { PaymentDialog } from './PaymentDialog';
import { DisputeDialog } from './DisputeDialog';
import './invoices.css';

const SUCCESS_MS = 4000;

/** Dashboard Invoices (SPEC §2, D10): the user's invoices as buyer and as seller; ?pay={id} opens that invoice. */
export function InvoicesTab() {
  const { data, error, isLoading, refetch } = useInvoicesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [params] = useSearchParams();
  const rows = dashboardRows(data?.invoices, error);
  const failed = listLoadFailed(error);

  return (
    <section aria-labelledby="invoices-heading">
      <div className="invoices-head">
        <h2 id="invoices-heading">
          Invoices{!isLoading && !failed && <span className="muted"> ({rows.length})</span>}
        </h2>
        {rows.length > 0 && <Link to="/browse">Browse Websites</Link>}
      </div>
      {failed && <LoadError onRetry={() => refetch()}>Could not load your invoices: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading your invoices..." />}
      {!isLoading && !error && rows.length === 0 && <NoInvoicesYet />}
      {rows.length > 0 && <InvoiceList rows={rows} payId={params.get('pay')} />}
    </section>
  );
}

/** The empty state, pointing at what to do next. */
export function NoInvoicesYet() {
  return (
    <EmptyState>
      <p>{NO_INVOICES_TEXT}</p>
      <p className="muted">Invoices appear here when you buy a website or one of yours sells.</p>
      <Link className="btn btn-primary" to="/browse">
        Browse Websites
      </Link>
    </EmptyState>
  );
}

/** The rows with their actions, the ?pay={id} highlight and the pay dialog. */
export function InvoiceList({ rows, payId = null }: { rows: InvoiceDto[]; payId?: string | null }) {
  const [markPaid] = useMarkInvoicePaidMutation();
  const [pdfUrl] = useInvoicePdfUrlMutation();
  const [markStarted] = useMarkTransferStartedMutation();
  const [confirmReceived] = useConfirmReceivedMutation();
  const [busy, setBusy] = useState<{ id: string; action: 'mark_paid' | 'pdf' | 'transfer' } | null>(null);
  const [disputing, setDisputing] = useState<InvoiceDto | null>(null);
  const [notice, setNotice] = useState<(RowNotice & { rowId: string }) | null>(null);
  const [paying, setPaying] = useState<InvoiceDto | null>(null);
  const dispatch = useAppDispatch();
  // The dialog may have changed the invoice (a hold, a decline): the list is read again when it closes.
  const closeDialog = useCallback(() => {
    setPaying(null);
    dispatch(invoicesApi.util.invalidateTags(['Invoices']));
  }, [dispatch]);
  const target = payTarget(rows, payId);
  const targetInvoice = target?.kind === 'found' ? target.invoice : null;
  const openTargetDialog = target?.kind === 'found' && target.openDialog;
  const handledPayId = useRef<string | null>(null);

  // ?pay={id} (the buy-now fallback, SPEC §4): once per id, bring the invoice into view and open its pay dialog.
  useEffect(() => {
    if (!targetInvoice || handledPayId.current === targetInvoice.id) return;
    handledPayId.current = targetInvoice.id;
    const row = document.getElementById(invoiceRowId(targetInvoice.id));
    row?.scrollIntoView({ block: 'center' });
    row?.focus({ preventScroll: true });
    if (openTargetDialog) setPaying(targetInvoice);
  }, [targetInvoice, openTargetDialog]);

  // Success fades (SPEC §9: 3 to 5 s); errors stay until the next action.
  useEffect(() => {
    if (!notice || notice.kind === 'error') return;
    const timer = setTimeout(() => setNotice(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const run = async (invoice: InvoiceDto, action: 'mark_paid' | 'pdf' | 'transfer', work: () => Promise<RowNotice | null>) => {
    setNotice(null);
    setBusy({ id: invoice.id, action });
    try {
      const outcome = await work();
      if (outcome) setNotice({ ...outcome, rowId: invoice.id });
    } finally {
      setBusy(null);
    }
  };

  const markInvoicePaid = (invoice: InvoiceDto) =>
    run(invoice, 'mark_paid', () =>
      performMarkPaid(invoice, { confirm: (text) => window.confirm(text), send: () => markPaid(invoice.id).unwrap() }),
    );
  // A transfer step answers with the server's sentence; a refusal shows its {detail} (what must happen first).
  const transferStep = (invoice: InvoiceDto, send: (id: string) => { unwrap: () => Promise<{ message: string }> }) =>
    run(invoice, 'transfer', async () => {
      try {
        return { kind: 'success', text: (await send(invoice.id).unwrap()).message };
      } catch (error) {
        return { kind: 'error', text: errorDetail(error, 'Could not save this step. Please try again.') };
      }
    });
  const download = (invoice: InvoiceDto) =>
    run(invoice, 'pdf', () =>
      performPdfDownload(invoice, {
        fetchUrl: () => pdfUrl(invoice.id).unwrap(),
        save: saveFile,
        // Revoked a moment later: some browsers still read the URL after the click returns.
        revoke: (url) => setTimeout(() => URL.revokeObjectURL(url), 1000),
      }),
    );

  return (
    <>
      {target?.kind === 'missing' && (
        <div className="alert alert-info" role="status">
          The invoice in this link is not among yours.
        </div>
      )}
      <ul className="invoices-list">
        {rows.map((invoice) => (
          <InvoiceRow
            key={invoice.id}
            invoice={invoice}
            highlighted={invoice.id === targetInvoice?.id}
            busy={busy?.id === invoice.id ? busy.action : null}
            notice={notice?.rowId === invoice.id ? notice : null}
            onPay={() => setPaying(invoice)}
            onMarkPaid={() => void markInvoicePaid(invoice)}
            onDownload={() => void download(invoice)}
            onMarkStarted={() => void transferStep(invoice, markStarted)}
            onConfirmReceived={() => void transferStep(invoice, confirmReceived)}
            onDispute={() => setDisputing(invoice)}
          />
        ))}
      </ul>
      {paying && <PaymentDialog invoice={paying} onClose={closeDialog} />}
      {disputing && (
        <DisputeDialog
          invoice={disputing}
          onClose={() => setDisputing(null)}
          onOpened={(text) => {
            setNotice({ kind: 'success', text, rowId: disputing.id });
            setDisputing(null);
          }}
        />
      )}
    </>
  );
}

/** Saves an object URL as a download named `filename`. */
function saveFile(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
