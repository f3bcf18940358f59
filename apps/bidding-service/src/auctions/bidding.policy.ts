import { BUYING_HOLD_MESSAGE, type SaleState } from '@market/domain';

// Who may do what to a sale in bidding-service (ADR 0069): pure functions of the actor and the records, asked first.

/** Why anyone but the seller is refused a decision on a bid (D8). */
export const ONLY_THE_SELLER = 'Only the seller can accept or reject bids on this listing';
/** Why a suspended or deleted member's bid, offer or purchase is refused (ADR 0038). */
export const BARRED = 'Your account cannot bid right now. Please contact support.';
/** Why a seller cannot accept a removed member's bid (ADR 0038). */
export const BARRED_BIDDER = "This bidder's account is suspended or closed, so their bid cannot be accepted. Choose another bid.";

/** A refusal as bidding answers it: the status and the reason. */
export interface SaleRefusal {
  allowed: false;
  status: 403 | 400;
  reason: string;
}

/**
 * Who may accept or reject a bid or offer (D8, ADR 0069): the listing's seller only. Asked before anything happens, so
 * nobody else's request ends an overdue sale either. Null when allowed.
 */
export function saleDecisionRefusal(actorId: string, sale: Pick<SaleState, 'seller_id'>): SaleRefusal | null {
  return actorId === sale.seller_id ? null : { allowed: false, status: 403, reason: ONLY_THE_SELLER };
}

/**
 * Who may bid, offer or buy (ADR 0038, 0043): not a member removed by moderation, nor one whose buying is on hold
 * (`held`: buyingHoldOf in libs/domain, as read with the bids). Null when allowed.
 */
export function buyerRefusal(standing: { barred: boolean; held?: boolean }): string | null {
  if (standing.barred) return BARRED;
  if (standing.held) return BUYING_HOLD_MESSAGE;
  return null;
}

/** Whom a seller may sell to (ADR 0038): never a removed member, whose bids the sweep takes back soon. Null when allowed. */
export function saleToRefusal(bidderBarred: boolean): SaleRefusal | null {
  return bidderBarred ? { allowed: false, status: 400, reason: BARRED_BIDDER } : null;
}
