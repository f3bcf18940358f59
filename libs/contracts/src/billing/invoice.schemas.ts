/** Invoice statuses (SPEC §4). */
export const INVOICE_STATUSES = ['pending', 'overdue', 'paid', 'payment_failed', 'awaiting_payment', 'payment_canceled', 'payment_authorized'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** What was sold: an auction won or a bid accepted, an accepted offer on a fixed price, or a buy-now purchase. */
export type SaleType = 'auction_win' | 'accepted_offer' | 'buy_now';

export interface InvoiceParty {
  id: string;
  username: string;
}

/** An invoice as its buyer or seller sees it (SPEC §3 Invoice, D10). Money in dollars; fees may carry cents. */
export interface InvoiceDto {
  id: string;
  invoice_number: string;
  sale_type: SaleType;
  role: 'buyer' | 'seller';
  listing_id: string;
  website_title: string;
  website_url: string | null;
  total_amount: number;
  status: InvoiceStatus;
  due_date: string;
  created_at: string;
  paid_at: string | null;
  buyer: InvoiceParty;
  seller: InvoiceParty;
  /** Seller view only (D10): the success fee in force when the invoice was made, the fee, and the payout. */
  success_fee_percent: number | null;
  success_fee: number | null;
  payout: number | null;
  /** The buyer may start or retry a payment now (SPEC §4). */
  can_pay: boolean;
  /** The seller may mark it paid (pending only). */
  can_mark_paid: boolean;
}

/** GET /api/invoices: the actor's invoices as buyer and as seller, newest first. */
export interface InvoicesResponse {
  invoices: InvoiceDto[];
}

/** PATCH /api/invoices/{id}/mark-paid answer. */
export interface MarkPaidResponse {
  message: string;
  invoice: InvoiceDto;
}

/** billing.invoices.pdf answer (services only): the file's name and its bytes in base64. */
export interface InvoicePdfFile {
  file_name: string;
  content_base64: string;
}

/**
 * POST /api/listings/{id}/buy-now answer (SPEC §7): pay at the provider's checkout when one was set up
 * (redirect_to_payment + payment.checkout_url), else pay the invoice from the dashboard (fallback_payment_required +
 * invoice.id), or the sale stands but its payment could not be prepared (payment_setup_failed).
 */
export interface BuyNowResponse {
  message: string;
  redirect_to_payment: boolean;
  payment: { checkout_url: string } | null;
  fallback_payment_required: boolean;
  invoice: { id: string; invoice_number: string } | null;
  payment_setup_failed: boolean;
}
