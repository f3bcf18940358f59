import { Link } from 'react-router-dom';
import { TEST_MODE_NOTICE, type InvoiceDto, type SaleReviewStateDto } from '@market/contracts';
import { formatMoney } from '../../lib/money';
import { dueLine, payByLine, saleTypeLabel, statusBadge } from './invoices';
import { BuyerActions, SellerActions, SellerFigures } from './InvoiceRowParts';
import { TransferVerification } from './TransferVerification';
import { TransferPanel } from './TransferPanel';
import { EscrowNote } from './EscrowNote';
import { InvoiceReview } from './InvoiceReview';

/** A short note inside one row: the outcome of Mark Paid or of a download. */
export interface RowNotice {
  kind: 'success' | 'error';
  text: string;
}

export interface InvoiceRowProps {
  invoice: InvoiceDto;
  /** Reached through ?pay={id}: scrolled to and marked. */
  highlighted?: boolean;
  /** Which of the row's requests runs, if any. */
  busy?: 'mark_paid' | 'pdf' | 'transfer' | null;
  notice?: RowNotice | null;
  onPay?: () => void;
  onMarkPaid?: () => void;
  onDownload?: () => void;
  /** The transfer checklist's steps and the dispute dialog (ADR 0039). */
  onMarkStarted?: () => void;
  onConfirmReceived?: () => void;
  onDispute?: () => void;
  /** The sale's reviews once it is paid out (D23), and opening the review dialog. */
  review?: SaleReviewStateDto | null;
  onReview?: () => void;
  now?: Date;
}

const noop = () => undefined;

/** The DOM id of an invoice's row, for ?pay={id} to scroll to. */
export const invoiceRowId = (id: string) => `invoice-${id}`;

/**
 * One invoice (SPEC §3, D10): what was sold and how, the amount, status and due date; for sellers the fee and payout.
 * Buyers get the pay button of its status (SPEC §4), sellers Mark Paid, everyone the PDF. While the sandbox runs the
 * payments the row says no real money moved (ADR 0033).
 */
export function InvoiceRow(props: InvoiceRowProps) {
  const { invoice, highlighted = false, busy = null, notice = null, onPay = noop, onMarkPaid = noop, onDownload = noop, now } = props;
  const badge = statusBadge(invoice.status);
  const due = dueLine(invoice, now);
  const payBy = payByLine(invoice);
  const seller = invoice.role === 'seller';
  return (
    <li
      id={invoiceRowId(invoice.id)}
      className={`card invoice-row${highlighted ? ' invoice-row-highlighted' : ''}`}
      data-testid="invoice-row"
      data-highlighted={highlighted ? 'true' : undefined}
      tabIndex={highlighted ? -1 : undefined}
    >
      <div className="invoice-main">
        <h3 className="invoice-title">
          <Link to={`/listing/${invoice.listing_id}`}>{invoice.website_title}</Link>
        </h3>
        <div className="invoice-tags">
          <span className="invoice-number">{invoice.invoice_number}</span>
          <span className="invoice-tag">{seller ? 'Seller' : 'Buyer'}</span>
          <span className="invoice-tag">{saleTypeLabel(invoice.sale_type)}</span>
          <span className={`badge badge-${badge.tone}`} data-testid="invoice-status">
            {badge.label}
          </span>
        </div>
        <p className="invoice-party muted">{seller ? `Buyer: ${invoice.buyer.username}` : `Seller: ${invoice.seller.username}`}</p>
        <p className={`invoice-due${due.overdue ? ' invoice-due-overdue' : ''}`}>{due.text}</p>
        {payBy && (
          <p className="invoice-pay-by" data-testid="invoice-pay-by">
            {payBy}
          </p>
        )}
        {invoice.test_mode && (
          <p className="invoice-test-mode" data-testid="invoice-test-mode">
            {TEST_MODE_NOTICE}
          </p>
        )}
      </div>
      <div className="invoice-amounts">
        <strong className="invoice-amount" aria-label="Invoice total">
          {formatMoney(invoice.total_amount)}
        </strong>
        {seller && <SellerFigures invoice={invoice} />}
      </div>
      <div className="invoice-side">
        {seller ? <SellerActions invoice={invoice} busy={busy === 'mark_paid'} onMarkPaid={onMarkPaid} /> : <BuyerActions invoice={invoice} onPay={onPay} />}
        <button type="button" className="btn btn-ghost btn-tiny" disabled={busy === 'pdf'} aria-label={`Download PDF of ${invoice.invoice_number}`} onClick={onDownload}>
          {busy === 'pdf' ? 'Downloading...' : 'Download PDF'}
        </button>
      </div>
      <TransferPanel
        invoice={invoice}
        busy={busy === 'transfer'}
        onMarkStarted={props.onMarkStarted ?? noop}
        onConfirmReceived={props.onConfirmReceived ?? noop}
        onDispute={props.onDispute ?? noop}
      />
      <TransferVerification invoice={invoice} />
      <EscrowNote invoice={invoice} />
      {props.review && <InvoiceReview sale={props.review} onReview={props.onReview ?? noop} now={now} />}
      {notice && (
        <div className={`alert invoice-notice ${notice.kind === 'error' ? 'alert-error' : 'alert-success'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
    </li>
  );
}
