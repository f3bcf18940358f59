import type { InvoiceDto } from '@market/contracts';
import { buyerSide, FUNDS_HELD, FUNDS_RELEASED_BUYER, FUNDS_RELEASED_SELLER, sellerFigures } from './invoices';

/** The seller's fee and payout on their invoice (D10). */
export function SellerFigures({ invoice }: { invoice: InvoiceDto }) {
  const figures = sellerFigures(invoice);
  return (
    <dl className="invoice-figures">
      <div>
        <dt className="muted">Fee</dt>
        <dd data-testid="invoice-fee">{figures.fee}</dd>
      </div>
      <div>
        <dt className="muted">Payout</dt>
        <dd data-testid="invoice-payout">
          <strong>{figures.payout}</strong>
        </dd>
      </div>
    </dl>
  );
}

/** The buyer's side of a row: the pay button of its status (SPEC §4), or where the money stands. */
export function BuyerActions({ invoice, onPay }: { invoice: InvoiceDto; onPay: () => void }) {
  const side = buyerSide(invoice);
  if (side.kind === 'pay') {
    return (
      <button type="button" className="btn btn-primary btn-tiny" aria-label={`${side.label} ${invoice.invoice_number}`} onClick={onPay}>
        {side.label}
      </button>
    );
  }
  if (side.kind === 'held') return <span className="invoice-info">{invoice.escrow.payout_status ? FUNDS_RELEASED_BUYER : FUNDS_HELD}</span>;
  if (invoice.status === 'disputed') return <span className="invoice-info invoice-info-warning">Disputed: funds held until an admin decides</span>;
  if (side.kind === 'completed') return <span className="badge badge-green">Completed</span>;
  return <span />;
}

/** The seller's side of a row: Mark Paid while it can be, or where the money stands. */
export function SellerActions({ invoice, busy, onMarkPaid }: { invoice: InvoiceDto; busy: boolean; onMarkPaid: () => void }) {
  if (invoice.can_mark_paid) {
    return (
      <button type="button" className="btn btn-primary btn-tiny" disabled={busy} aria-label={`Mark ${invoice.invoice_number} paid`} onClick={onMarkPaid}>
        {busy ? 'Marking...' : 'Mark Paid'}
      </button>
    );
  }
  if (invoice.status === 'payment_authorized') return <span className="invoice-info">{invoice.escrow.payout_status ? FUNDS_RELEASED_SELLER : FUNDS_HELD}</span>;
  if (invoice.status === 'disputed') return <span className="invoice-info invoice-info-warning">Disputed: funds held until an admin decides</span>;
  if (invoice.status === 'paid') return <span className="badge badge-green">Completed</span>;
  return <span />;
}
