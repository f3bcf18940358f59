import { ADMIN_BUYING_ROUTES, BIDDING_ROUTES } from '../bidding/bidding.routes';
import { ADMIN_LISTINGS_ROUTES, LISTINGS_ROUTES, UPLOADS_ROUTES, USER_LISTINGS_ROUTES, WATCHLIST_ROUTES } from '../listings/listings.routes';
import { ADMIN_BILLING_ROUTES, INVOICES_ROUTES, PAYMENTS_ROUTES, WEBHOOKS_ROUTES } from '../billing/billing.routes';
import { SITE_ROUTES } from '../billing/site.routes';
import { LISTING_OWNERSHIP_ROUTES } from '../listings/ownership.routes';
import { TRANSFER_PROOF_ROUTES } from '../billing/transfer-proof.routes';
import { PAYMENT_METHOD_ROUTES } from '../billing/payment-method.routes';
import { ADMIN_LEDGER_ROUTES, PAYOUT_ROUTES } from '../billing/payout.routes';
import { ACCOUNT_ROUTES, AUTH_ROUTES } from '../auth/auth.routes';
import { ADMIN_ROUTES, FEES_ROUTES } from '../admin/admin.routes';
import { CONTACT_ROUTES, MESSAGES_ROUTES } from '../messages/messages.routes';
import { SALE_CANCELLATION_ROUTES } from '../billing/sale-cancellation.routes';
import { SAVED_SEARCH_ROUTES } from '../listings/saved-search.routes';
import { REVIEW_ROUTES } from '../listings/review.routes';
import { VERIFIED_FIGURES_ROUTES } from '../listings/verified-figures.routes';
import type { RouteDefinition } from './define-route';
import { ERROR_CODE_ROUTES } from './error-codes.routes';

/** Every route of the public API by group: the gateway serves exactly these and the OpenAPI document lists them. */
export const API = {
  bids: BIDDING_ROUTES,
  listings: LISTINGS_ROUTES,
  userListings: USER_LISTINGS_ROUTES,
  watchlist: WATCHLIST_ROUTES,
  savedSearches: SAVED_SEARCH_ROUTES,
  reviews: REVIEW_ROUTES,
  adminListings: ADMIN_LISTINGS_ROUTES,
  listingOwnership: LISTING_OWNERSHIP_ROUTES,
  verifiedFigures: VERIFIED_FIGURES_ROUTES,
  uploads: UPLOADS_ROUTES,
  invoices: INVOICES_ROUTES,
  transferProof: TRANSFER_PROOF_ROUTES,
  payments: PAYMENTS_ROUTES,
  paymentMethod: PAYMENT_METHOD_ROUTES,
  payouts: PAYOUT_ROUTES,
  adminBilling: ADMIN_BILLING_ROUTES,
  adminLedger: ADMIN_LEDGER_ROUTES,
  saleCancellation: SALE_CANCELLATION_ROUTES,
  webhooks: WEBHOOKS_ROUTES,
  site: SITE_ROUTES,
  auth: AUTH_ROUTES,
  account: ACCOUNT_ROUTES,
  admin: ADMIN_ROUTES,
  adminBuying: ADMIN_BUYING_ROUTES,
  fees: FEES_ROUTES,
  messages: MESSAGES_ROUTES,
  contact: CONTACT_ROUTES,
  errors: ERROR_CODE_ROUTES,
} satisfies Record<string, Record<string, RouteDefinition>>;

/** What each tag of the API document groups. */
export const API_TAGS: Record<string, string> = {
  bids: 'Bids and offers (SPEC §7)',
  listings: 'Listings: browse, view, create, edit, delete, and your own (SPEC §2, §5, §7)',
  watchlist: 'Your watched listings (SPEC §7)',
  reviews: 'Reviews of completed sales and sellers\' public pages (D23, ADR 0083)',
  'admin-listings': 'The admin Listings tab: review, feature, status and deletion (real admins only, D16)',
  uploads: 'Stored screenshots and the site logo (D18)',
  invoices: 'Invoices and buy-now (SPEC §4, §7, D4, D10)',
  payments: 'Card payments, held in escrow until the transfer is verified (D11, D12, ADR 0020)',
  payouts: 'Payout accounts and payouts: how sellers get paid once the transfer is verified (D22, ADR 0063)',
  'admin-billing': 'The admin Payments, Transactions, Analytics and Ledger tabs (real admins only, ADR 0021, ADR 0063)',
  webhooks: 'Payment provider webhooks (ADR 0023)',
  site: 'How this deployment runs: payments provider and test mode (ADR 0033)',
  auth: 'Registration, login, email verification and password reset (D13, D15)',
  account: "The signed-in user's own profile and password",
  admin: 'The admin dashboard: users, stats, audit log, emails, settings, impersonation (real admins only, D14)',
  fees: 'What selling costs (ADR 0026)',
  messages: 'Messages between members (SPEC §7)',
  contact: 'The contact form (SPEC §5)',
  errors: 'The stable error codes every error body carries (RFC 9457 problem details, ADR 0079)',
};
