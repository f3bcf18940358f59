import { useEffect, useState } from 'react';
import type { InvoiceDto } from '@market/contracts';
import {
  useConfirmReceivedMutation,
  useInvoicePdfUrlMutation,
  useMarkInvoicePaidMutation,
  useMarkTransferStartedMutation,
} from '../../api/invoices.api';
import { errorDetail } from '../../lib/error-detail';
import type { RowNotice } from './InvoiceRow';
import { performMarkPaid, performPdfDownload } from './invoices';

const SUCCESS_MS = 4000;

/** What a row is busy with, for its buttons' labels. */
export type RowAction = 'mark_paid' | 'pdf' | 'transfer';

/**
 * The acts of the invoice rows (mark paid, download, the transfer steps) and the one notice they leave under their row:
 * a success fades (SPEC §9: 3 to 5 s), an error stays until the next act.
 */
export function useInvoiceActions() {
  const [markPaid] = useMarkInvoicePaidMutation();
  const [pdfUrl] = useInvoicePdfUrlMutation();
  const [markStarted] = useMarkTransferStartedMutation();
  const [confirmReceived] = useConfirmReceivedMutation();
  const [busy, setBusy] = useState<{ id: string; action: RowAction } | null>(null);
  const [notice, setNotice] = useState<(RowNotice & { rowId: string }) | null>(null);

  useEffect(() => {
    if (!notice || notice.kind === 'error') return;
    const timer = setTimeout(() => setNotice(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const run = async (invoice: InvoiceDto, action: RowAction, work: () => Promise<RowNotice | null>) => {
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

  return {
    busy,
    notice,
    setNotice,
    markInvoicePaid,
    download,
    markStarted: (invoice: InvoiceDto) => transferStep(invoice, markStarted),
    confirmReceived: (invoice: InvoiceDto) => transferStep(invoice, confirmReceived),
  };
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
