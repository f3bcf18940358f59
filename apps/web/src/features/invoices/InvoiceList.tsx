import { useCallback, useEffect, useRef, useState } from 'react';
import type { InvoiceDto } from '@market/contracts';
import { invoicesApi } from '../../api/invoices.api';
import { useAppDispatch } from '../../lib/store-hooks';
import { InvoiceRow, invoiceRowId } from './InvoiceRow';
import { payTarget } from './invoices';
import { PaymentDialog } from './PaymentDialog';
import { DisputeDialog } from './DisputeDialog';
import { useInvoiceActions } from './use-invoice-actions';

/** The rows with their actions, the ?pay={id} highlight and the pay dialog. */
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
