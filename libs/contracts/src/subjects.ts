import { BIDDING_RPC } from './bidding/bidding.rpc';
import { AUTH_RPC } from './auth/auth.rpc';
import { ADMIN_RPC } from './admin/admin.rpc';
import { NOTIFICATIONS_RPC } from './messages/notifications.rpc';

/** NATS request-reply subjects, one per service operation. Services listen in queue groups named after the service. */
export const RPC = {
  auth: AUTH_RPC,
  listings: {
    stats: 'listings.stats',
    sellerCounts: 'listings.seller_counts',
    create: 'listings.create',
    get: 'listings.get',
    browse: 'listings.browse',
    update: 'listings.update',
    setStatus: 'listings.set_status',
    delete: 'listings.delete',
    mine: 'listings.mine',
    adminList: 'listings.admin.list',
    adminUpdate: 'listings.admin.update',
    watchlistAdd: 'listings.watchlist.add',
    watchlistList: 'listings.watchlist.list',
    watchlistRemove: 'listings.watchlist.remove',
  },
  bidding: BIDDING_RPC,
  billing: {
    stats: 'billing.stats',
    /** POST /api/listings/{id}/buy-now: the sale through bidding, then its invoice and payment (D4). */
    buyNow: 'billing.buy_now',
    listInvoices: 'billing.invoices.list',
    getInvoice: 'billing.invoices.get',
    invoicePdf: 'billing.invoices.pdf',
    markPaid: 'billing.invoices.mark_paid',
    /** Admin Transactions and Analytics tabs (ADR 0021). */
    adminTransactions: 'billing.admin.transactions',
    adminInvoiceAnalytics: 'billing.admin.invoice_analytics',
    /** Card payments (D11, D12, ADR 0020). */
    createPayment: 'billing.payments.create',
    createCheckoutSession: 'billing.payments.checkout_session',
    paymentStatus: 'billing.payments.status',
    sandboxConfirm: 'billing.payments.sandbox_confirm',
    sandboxConfirmStep: 'billing.payments.sandbox_confirm_step',
    sandboxCompleteCheckout: 'billing.payments.sandbox_complete_checkout',
    adminListPayments: 'billing.payments.admin_list',
    adminCapture: 'billing.payments.admin_capture',
    adminRefund: 'billing.payments.admin_refund',
    /** A Stripe webhook's exact bytes and signature, verified by billing (ADR 0023). */
    stripeWebhook: 'billing.payments.stripe_webhook',
  },
  admin: ADMIN_RPC,
  notifications: NOTIFICATIONS_RPC,
} as const;

/** Queue group names: every replica of a service shares its subjects' load. */
export const SERVICE_NAMES = [
  'auth-service',
  'listings-service',
  'bidding-service',
  'billing-service',
  'admin-service',
  'notifications-service',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
