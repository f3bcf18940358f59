import type { InvoiceDto, InvoiceStatus, MarkPaidResponse, SaleType } from '@market/contracts';
import { formatMoney } from '../../lib/money';

/** The empty-state text of the Invoices tab. */
export const NO_INVOICES_TEXT = 'No invoices yet.';
/** SPEC §4: payment_authorized means the buyer's funds are held. */
export const FUNDS_HELD = 'Funds held until the domain transfer is verified';
/** D22: released funds stay with the invoice until the seller's payout arrives; the row says they left escrow. */
export const FUNDS_RELEASED_SELLER = 'Funds released to you';
export const FUNDS_RELEASED_BUYER = 'Funds released to the seller';
/** D10: a success fee of 0. */
export const SELLING_FREE = 'Selling is currently free';
/** The failure texts of SPEC §8. */
export const PDF_FAILED = 'Failed to download PDF. Please try again.';
export const MARK_PAID_FAILED = 'Failed to mark invoice as paid. Please try again.';

export type BadgeTone = 'green' | 'red' | 'gray' | 'blue' | 'orange';

const STATUS_BADGES: Record<InvoiceStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'blue' },
  overdue: { label: 'Overdue', tone: 'red' },
  paid: { label: 'Paid', tone: 'green' },
  payment_failed: { label: 'Payment Failed', tone: 'red' },
  awaiting_payment: { label: 'Awaiting Payment', tone: 'orange' },
  payment_canceled: { label: 'Payment Canceled', tone: 'gray' },
  payment_authorized: { label: 'Payment Authorized', tone: 'green' },
  // Funds still held while an admin decides (ADR 0039).
  disputed: { label: 'Disputed', tone: 'orange' },
  // The payment window passed unpaid or an admin cancelled the sale (ADR 0043).
  cancelled: { label: 'Cancelled', tone: 'gray' },
};

/** A status as its badge reads (SPEC §4, and disputed, ADR 0039); a status the web does not know shows as sent. */
export function statusBadge(status: string): { label: string; tone: BadgeTone } {
  return STATUS_BADGES[status as InvoiceStatus] ?? { label: status, tone: 'gray' };
}

const SALE_TYPES: Record<SaleType, string> = { auction_win: 'Auction win', accepted_offer: 'Accepted offer', buy_now: 'Buy now' };

/** What was sold, in words; an unknown type shows as sent. */
export function saleTypeLabel(type: string): string {
  return SALE_TYPES[type as SaleType] ?? type;
}

/** Statuses where the buyer still owes the money (SPEC §4: every payable one); a due date past them is overdue. */
const UNPAID: readonly string[] = ['pending', 'overdue', 'awaiting_payment', 'payment_failed', 'payment_canceled'];

/** What the buyer's side of a row offers (SPEC §2, §4): a pay button, the funds-held line, or Completed. */
export type BuyerSide = { kind: 'pay'; label: 'Pay' | 'Continue Payment' | 'Retry Payment' } | { kind: 'held' } | { kind: 'completed' } | { kind: 'none' };

/** The buyer's button by status; the server's can_pay has the last word on whether paying is possible now. */
export function buyerSide(invoice: Pick<InvoiceDto, 'status' | 'can_pay'>): BuyerSide {
  switch (invoice.status) {
    case 'pending':
    case 'overdue':
      return invoice.can_pay ? { kind: 'pay', label: 'Pay' } : { kind: 'none' };
    case 'awaiting_payment':
      return invoice.can_pay ? { kind: 'pay', label: 'Continue Payment' } : { kind: 'none' };
    case 'payment_failed':
    case 'payment_canceled':
      return invoice.can_pay ? { kind: 'pay', label: 'Retry Payment' } : { kind: 'none' };
    case 'payment_authorized':
      return { kind: 'held' };
    case 'paid':
      return { kind: 'completed' };
    default:
      return { kind: 'none' };
  }
}

/** A date as the viewer's locale writes it; the raw text when it is not a date. */
export function formatInvoiceDate(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { dateStyle: 'medium' });
}

/** The row's date line: when it was paid, or when it is due, flagged once an unpaid invoice is past it (D10). */
export function dueLine(invoice: Pick<InvoiceDto, 'status' | 'due_date' | 'paid_at'>, now: Date = new Date(), locale?: string): { text: string; overdue: boolean } {
  if (invoice.status === 'paid') return { text: invoice.paid_at ? `Paid ${formatInvoiceDate(invoice.paid_at, locale)}` : 'Paid', overdue: false };
  const due = Date.parse(invoice.due_date);
  const overdue = invoice.status === 'overdue' || (UNPAID.includes(invoice.status) && !Number.isNaN(due) && due < now.getTime());
  return { text: `Due ${formatInvoiceDate(invoice.due_date, locale)}${overdue ? ' (overdue)' : ''}`, overdue };
}

/** Why a cancelled sale ended, as its row says it (ADR 0043, and a refund of held funds since D22). */
const CANCELLED_LINES: Record<NonNullable<InvoiceDto['cancel_reason']> | 'unknown', string> = {
  unpaid: 'Sale cancelled: it was not paid in time',
  admin_cancelled: 'Sale cancelled by an admin',
  refunded: 'Sale cancelled: the payment was refunded to the buyer',
  unknown: 'Sale cancelled: it was not paid in time or an admin cancelled it',
};

/**
 * The payment window's line (ADR 0043): "Pay by <date and time>" while an invoice with a window is unpaid (the sale
 * lapses after it), why a cancelled sale ended (unpaid, an admin, a refund), else null.
 */
export function payByLine(invoice: Pick<InvoiceDto, 'status' | 'pay_by'> & Partial<Pick<InvoiceDto, 'cancel_reason'>>, locale?: string): string | null {
  if (invoice.status === 'cancelled') return CANCELLED_LINES[invoice.cancel_reason ?? 'unknown'] ?? CANCELLED_LINES.unknown;
  if (!invoice.pay_by || !UNPAID.includes(invoice.status)) return null;
  const date = new Date(invoice.pay_by);
  if (Number.isNaN(date.getTime())) return null;
  return `Pay by ${date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}`;
}

/** A seller's figures (D10): the success fee with its percent, or that selling is free, and the payout. */
export function sellerFigures(invoice: Pick<InvoiceDto, 'total_amount' | 'success_fee_percent' | 'success_fee' | 'payout'>): { fee: string; payout: string } {
  const fee = invoice.success_fee ?? 0;
  const percent = invoice.success_fee_percent ?? 0;
  const payout = formatMoney(invoice.payout ?? invoice.total_amount - fee);
  if (fee === 0 && percent === 0) return { fee: SELLING_FREE, payout };
  return { fee: `Success fee (${percent.toLocaleString('en-US', { maximumFractionDigits: 2 })}%): ${formatMoney(fee)}`, payout };
}

/** The file name of an invoice's PDF (SPEC §7: named with the invoice number), safe on every file system. */
export function pdfFilename(invoice: Pick<InvoiceDto, 'invoice_number'>): string {
  return `${invoice.invoice_number.replace(/[^\w.-]+/g, '_') || 'invoice'}.pdf`;
}

type ConfirmInvoice = Pick<InvoiceDto, 'invoice_number' | 'website_title' | 'total_amount' | 'buyer'>;

/** The mark-paid confirmation: it names the invoice, the buyer and the amount, because it cannot be undone. */
export function markPaidConfirmText(invoice: ConfirmInvoice): string {
  return (
    `Mark invoice ${invoice.invoice_number} for "${invoice.website_title}" (${formatMoney(invoice.total_amount)}) as paid?\n\n` +
    `Do this only once you have received ${invoice.buyer.username}'s payment. It cannot be undone.`
  );
}

export type RowOutcome = { kind: 'success' | 'error'; text: string } | null;

/** Marks an invoice paid after the seller confirms; null when they did not. Success is the server's message. */
export async function performMarkPaid(
  invoice: ConfirmInvoice,
  deps: { confirm: (text: string) => boolean; send: () => Promise<MarkPaidResponse> },
): Promise<RowOutcome> {
  if (!deps.confirm(markPaidConfirmText(invoice))) return null;
  try {
    const response = await deps.send();
    return { kind: 'success', text: response.message || `Invoice ${invoice.invoice_number} marked as paid.` };
  } catch {
    return { kind: 'error', text: MARK_PAID_FAILED };
  }
}

/** Fetches the PDF as an object URL, saves it under the invoice number and frees the URL; the SPEC §8 text on failure. */
export async function performPdfDownload(
  invoice: Pick<InvoiceDto, 'invoice_number'>,
  deps: { fetchUrl: () => Promise<string>; save: (url: string, filename: string) => void; revoke: (url: string) => void },
): Promise<RowOutcome> {
  let url: string;
  try {
    url = await deps.fetchUrl();
  } catch {
    return { kind: 'error', text: PDF_FAILED };
  }
  try {
    deps.save(url, pdfFilename(invoice));
    return null;
  } catch {
    return { kind: 'error', text: PDF_FAILED };
  } finally {
    deps.revoke(url);
  }
}

/** What ?pay={id} asks of the tab: the invoice to scroll to and highlight, and whether its pay dialog opens. */
export type PayTarget = { kind: 'found'; invoice: InvoiceDto; openDialog: boolean } | { kind: 'missing' } | null;

/** Reads ?pay={id} against the loaded rows: the dialog opens only for an invoice the viewer buys and can pay now. */
export function payTarget(rows: readonly InvoiceDto[], payId: string | null): PayTarget {
  if (!payId) return null;
  const invoice = rows.find((row) => row.id === payId);
  if (!invoice) return { kind: 'missing' };
  return { kind: 'found', invoice, openDialog: invoice.role === 'buyer' && buyerSide(invoice).kind === 'pay' };
}
