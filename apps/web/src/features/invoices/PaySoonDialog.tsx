import { useEffect } from 'react';
import type { InvoiceDto } from '@market/contracts';
import { formatMoney, PAYMENTS_SOON, statusBadge } from './invoices';

type DialogInvoice = Pick<InvoiceDto, 'invoice_number' | 'website_title' | 'total_amount' | 'status'>;

/**
 * What the pay buttons open until card payments exist: the invoice, and a plain statement that paying opens soon.
 * Nothing here takes or pretends to take a payment; the card form replaces the statement when payments land.
 */
export function PaySoonDialog({ invoice, onClose }: { invoice: DialogInvoice; onClose: () => void }) {
  const badge = statusBadge(invoice.status);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div
        className="modal card pay-soon"
        role="dialog"
        aria-modal="true"
        aria-labelledby="pay-soon-title"
        aria-describedby="pay-soon-text"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="pay-soon-title">Pay invoice {invoice.invoice_number}</h2>
        <dl className="pay-soon-facts">
          <div>
            <dt className="muted">Website</dt>
            <dd>{invoice.website_title}</dd>
          </div>
          <div>
            <dt className="muted">Amount</dt>
            <dd>
              <strong>{formatMoney(invoice.total_amount)}</strong>
            </dd>
          </div>
          <div>
            <dt className="muted">Status</dt>
            <dd>
              <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
            </dd>
          </div>
        </dl>
        <p id="pay-soon-text" className="alert alert-info pay-soon-text">
          {PAYMENTS_SOON}
        </p>
        <p className="muted pay-soon-small">When you pay, the funds are held until the domain transfer is verified.</p>
        <button type="button" className="btn btn-secondary btn-block" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
