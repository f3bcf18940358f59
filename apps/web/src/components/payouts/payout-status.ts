import type { PayoutAccountStatus, PayoutStatus } from '@market/domain';

/** A badge's colour (global.css): orange says someone still has to act. */
export type PayoutTone = 'green' | 'red' | 'gray' | 'blue' | 'orange';

/** Where one sale's money is, as a seller's row or an admin's payment shows it: escrow, then the payout's life (D22). */
export type SaleMoneyStatus = 'in_escrow' | PayoutStatus;

const SALE_MONEY_BADGES: Record<SaleMoneyStatus, { label: string; tone: PayoutTone }> = {
  in_escrow: { label: 'Held in escrow', tone: 'blue' },
  waiting_for_account: { label: 'Waiting for your payout account', tone: 'orange' },
  pending: { label: 'Being sent', tone: 'blue' },
  paid: { label: 'Paid', tone: 'green' },
  reversed: { label: 'Reversed', tone: 'red' },
};

/**
 * The badge of a sale's money, worded for its seller or, with `forAdmin`, for an admin looking at someone else's sale; a
 * status this build does not know shows as sent, so a newer server never breaks a row.
 */
export function saleMoneyBadge(status: string, forAdmin = false): { label: string; tone: PayoutTone } {
  // The admin's row says why it waits beside the badge (the seller's account status).
  if (forAdmin && status === 'waiting_for_account') return { label: 'Waiting', tone: 'orange' };
  return SALE_MONEY_BADGES[status as SaleMoneyStatus] ?? { label: status.replace(/_/g, ' '), tone: 'gray' };
}

const ACCOUNT_BADGES: Record<PayoutAccountStatus, { label: string; tone: PayoutTone }> = {
  not_started: { label: 'Not set up', tone: 'gray' },
  details_needed: { label: 'Details needed', tone: 'orange' },
  pending_verification: { label: 'Being verified', tone: 'blue' },
  enabled: { label: 'Payouts on', tone: 'green' },
  restricted: { label: 'Restricted', tone: 'red' },
};

/** The badge of a payout account's status (the sentence beside it is the domain's payoutAccountNextStep). */
export function payoutAccountBadge(status: string): { label: string; tone: PayoutTone } {
  return ACCOUNT_BADGES[status as PayoutAccountStatus] ?? { label: status.replace(/_/g, ' '), tone: 'gray' };
}
