import { dirname, join } from 'node:path';
import { TEST_MODE_NOTICE, type InvoiceDto, type InvoiceStatus } from '@market/contracts';
import { formatDollars } from '@market/domain';

/** The part of pdfmake 0.3's server API used here (the package ships no types). */
interface PdfMake {
  setFonts(fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(definition: Record<string, unknown>): { getBuffer(): Promise<Buffer> };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pdfmake = require('pdfmake') as PdfMake;

// Roboto ships with pdfmake and covers Latin, Greek and Cyrillic titles (the 14 standard PDF fonts cover Latin only).
const FONT_DIR = join(dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
const FONTS = {
  normal: join(FONT_DIR, 'Roboto-Regular.ttf'),
  bold: join(FONT_DIR, 'Roboto-Medium.ttf'),
  italics: join(FONT_DIR, 'Roboto-Italic.ttf'),
  bolditalics: join(FONT_DIR, 'Roboto-MediumItalic.ttf'),
};
const ALLOWED_FILES = new Set(Object.values(FONTS));
pdfmake.setFonts({ Roboto: FONTS });
// Nothing in an invoice is fetched: no URL, and no file but the fonts, whatever text a listing carries.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => ALLOWED_FILES.has(path));

/** The dashboard's labels for invoice statuses (SPEC §4, badge labels). */
const STATUS_LABELS: Record<InvoiceStatus, string> = {
  pending: 'Pending',
  overdue: 'Overdue',
  paid: 'Completed',
  payment_failed: 'Payment Failed',
  awaiting_payment: 'Ready for Payment',
  payment_canceled: 'Payment Canceled',
  payment_authorized: 'Payment Authorized',
  disputed: 'Disputed',
  cancelled: 'Cancelled',
};

const SALE_LABELS: Record<InvoiceDto['sale_type'], string> = {
  auction_win: 'Auction win',
  accepted_offer: 'Accepted offer',
  buy_now: 'Buy now',
};

/** US dollars with cents (fees may carry cents): $1,234.56. */
function formatCents(dollars: number): string {
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
}

/** The file name a downloaded invoice gets: its number (SPEC §7). */
export function invoiceFileName(invoice: Pick<InvoiceDto, 'invoice_number'>): string {
  return `${invoice.invoice_number}.pdf`;
}

/**
 * The invoice as a PDF for the one who asked: parties, website, amount, number, dates and status, and for the seller's
 * view the success fee in force when it was made and the payout. Listing text goes in as plain text, never markup.
 * A test-mode invoice says under its title, in red, that no real money moved (ADR 0033).
 */
export function renderInvoicePdf(invoice: InvoiceDto): Promise<Buffer> {
  return pdfmake.createPdf(invoicePdfDefinition(invoice)).getBuffer();
}

/** Where the seller's payout stands, in the PDF's words (D22). */
function payoutState(invoice: InvoiceDto): string {
  switch (invoice.escrow.payout_status) {
    case 'paid':
      return invoice.paid_at ? `Sent to the seller's payout account on ${formatDate(invoice.paid_at)}` : "Sent to the seller's payout account";
    case 'pending':
      return 'Released; being sent to the seller';
    case 'waiting_for_account':
      return "Released; waiting for the seller's payout account";
    case 'reversed':
      return 'Sent, then reversed by the payment provider';
    default:
      return invoice.status === 'payment_authorized' || invoice.status === 'disputed' ? 'Held in escrow until the transfer is verified' : 'None';
  }
}

/** The PDF's document definition (pdfmake): what renderInvoicePdf draws, as data. */
export function invoicePdfDefinition(invoice: InvoiceDto): Record<string, unknown> {
  const row = (label: string, value: string) => [{ text: label, style: 'label' }, { text: value }];
  const details = [
    row('Invoice number', invoice.invoice_number),
    row('Issued', formatDate(invoice.created_at)),
    row('Due date', formatDate(invoice.due_date)),
    row('Status', STATUS_LABELS[invoice.status]),
    ...(invoice.paid_at ? [row('Paid', formatDate(invoice.paid_at))] : []),
    row('Sale', SALE_LABELS[invoice.sale_type]),
  ];
  const money = [row('Total amount', formatDollars(invoice.total_amount))];
  if (invoice.success_fee !== null && invoice.payout !== null) {
    money.push(row(`Success fee (${invoice.success_fee_percent ?? 0}%)`, formatCents(invoice.success_fee)));
    money.push(row('Payout to seller', formatCents(invoice.payout)));
    // The payout line is what the transfer to the seller's payout account carries (D22); its state says whether it went.
    money.push(row('Payout', payoutState(invoice)));
  }
  return {
    info: { title: `${invoice.test_mode ? 'TEST MODE ' : ''}Invoice ${invoice.invoice_number}`, subject: invoice.website_title },
    pageSize: 'A4',
    pageMargins: [48, 56, 48, 56],
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.2 },
    styles: {
      title: { fontSize: 22, bold: true, margin: [0, 0, 0, 4] },
      heading: { fontSize: 12, bold: true, margin: [0, 16, 0, 6] },
      label: { color: '#555555' },
      total: { fontSize: 12, bold: true },
      testMode: { fontSize: 12, bold: true, color: '#b91c1c', margin: [0, 10, 0, 0] },
    },
    content: [
      { text: 'INVOICE', style: 'title' },
      { text: invoice.invoice_number, fontSize: 12 },
      ...(invoice.test_mode ? [{ text: TEST_MODE_NOTICE, style: 'testMode' }] : []),
      { text: 'Parties', style: 'heading' },
      {
        columns: [
          { stack: [{ text: 'Buyer', style: 'label' }, { text: invoice.buyer.username, bold: true }] },
          { stack: [{ text: 'Seller', style: 'label' }, { text: invoice.seller.username, bold: true }] },
        ],
      },
      { text: 'Website', style: 'heading' },
      { text: invoice.website_title, bold: true },
      ...(invoice.website_url ? [{ text: invoice.website_url, color: '#1d4ed8' }] : []),
      { text: 'Details', style: 'heading' },
      { table: { widths: [140, '*'], body: details }, layout: 'noBorders' },
      { text: 'Amount', style: 'heading' },
      { table: { widths: [140, '*'], body: money }, layout: 'lightHorizontalLines' },
      {
        text: 'Amounts in US dollars. Payment is due by the due date; funds are held until the domain transfer is verified.',
        style: 'label',
        fontSize: 8,
        margin: [0, 24, 0, 0],
      },
    ],
  };
}
