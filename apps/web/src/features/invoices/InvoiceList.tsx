import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { InvoiceDto, SaleReviewStateDto } from '@market/contracts';
import { invoicesApi } from '../../api/invoices.api';
import { useMySaleReviewsQuery } from '../../api/reviews.api';
import { useAppDispatch } from '../../lib/store-hooks';
import { InvoiceRow, invoiceRowId } from './InvoiceRow';
import { payTarget } from './invoices';
import { PaymentDialog } from './PaymentDialog';
import { DisputeDialog } from './DisputeDialog';
import { useInvoiceActions } from './use-invoice-actions';
import { ReviewDialog } from './ReviewDialog';
import { useReviewParam } from './use-review-param';

/** The rows with their actions, the ?pay={id} highlight, the pay dialog and the ?review={id} review dialog (D23). */
export function InvoiceList({ rows, payId = null }: { rows: InvoiceDto[]; payId?: string | null }) {
  const { busy, notice, setNotice, markInvoicePaid, download, markStarted, confirmReceived } = useInvoiceActions();
  const [disputing, setDisputing] = useState<InvoiceDto | null>(null);
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
  // The sales paid out, by invoice: a failure to read them only leaves the rows without review actions.
  const { data: reviewed } = useMySaleReviewsQuery(undefined, { refetchOnMountOrArgChange: true });
  const sales = useMemo(() => new Map<string, SaleReviewStateDto>((reviewed?.sales ?? []).map((sale) => [sale.invoice_id, sale])), [reviewed]);
  const { reviewId, openReview, closeReview } = useReviewParam();
  const reviewing = reviewId ? (sales.get(reviewId) ?? null) : null;

  // ?pay={id} (the buy-now fallback, SPEC §4): once per id, bring the invoice into view and open its pay dialog.
  useEffect(() => {
    if (!targetInvoice || handledPayId.current === targetInvoice.id) return;
    handledPayId.current = targetInvoice.id;
    const row = document.getElementById(invoiceRowId(targetInvoice.id));
    row?.scrollIntoView({ block: 'center' });
    row?.focus({ preventScroll: true });
    if (openTargetDialog) setPaying(targetInvoice);
  }, [targetInvoice, openTargetDialog]);

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
            onMarkStarted={() => void markStarted(invoice)}
            onConfirmReceived={() => void confirmReceived(invoice)}
            onDispute={() => setDisputing(invoice)}
            review={sales.get(invoice.id) ?? null}
            onReview={() => openReview(invoice.id)}
          />
        ))}
      </ul>
      {reviewing && <ReviewDialog key={reviewing.invoice_id} sale={reviewing} onClose={closeReview} />}
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
