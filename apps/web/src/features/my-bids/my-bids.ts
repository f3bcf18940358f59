import type { BidAction, BidActionResponse, UserBidRow } from '@market/contracts';
import { formatDollars } from '@market/domain';
import { errorDetail } from '../../lib/error-detail';

/** The empty-state text of SPEC §2. */
export const NO_BIDS_TEXT = "You haven't placed any bids yet.";
/** Shown for 3 s after View bidder (SPEC §2, §9). */
export const PROFILE_SOON = 'Profile view coming soon!';
export const PROFILE_NOTICE_MS = 3000;
/** Messaging arrives with its own issue: the compose dialog says plainly that nothing is sent. */

export type BadgeTone = 'green' | 'red' | 'gray' | 'blue';

export interface RowBadge {
  label: string;
  tone: BadgeTone;
  /** Said on hover and to screen readers when the label alone could puzzle. */
  hint?: string;
}

/** "Bid", "Offer" (D5: an offer is a bid on a fixed-price listing) or "Buy now" (D4: a purchase ends the sale). */
export function kindLabel(kind: UserBidRow['kind']): 'Bid' | 'Offer' | 'Buy now' {
  return kind === 'offer' ? 'Offer' : kind === 'buy_now' ? 'Buy now' : 'Bid';
}

/** The badge of an own bid superseded by the bidder's later bid or maximum on the same listing (ADR 0060). */
export const RAISED_BADGE: RowBadge = { label: 'Raised', tone: 'gray', hint: 'You bid again on this listing after this bid; your newest bid shows where you stand.' };

/**
 * Whether a buyer row is an own bid that a later one of the same bidder replaced (ADR 0060): it does not lead while
 * its bidder leads the listing with another row, or it is an older, still standing bid. Such a row is not 'Outbid':
 * the listing's state is told once, on the bidder's current row.
 */
export function isSuperseded(row: Pick<UserBidRow, 'kind' | 'status' | 'is_winning' | 'leading' | 'latest'>): boolean {
  if (row.kind !== 'bid' || row.is_winning) return false;
  return row.leading || (!row.latest && row.status === 'pending');
}

/**
 * A buyer row's badges (SPEC §4): 'Winning' when it leads (or was accepted); a pending bid that does not lead is
 * 'Outbid', but a pending offer competes with nothing, so it is 'Offer pending' (decision 0016). An own bid that a
 * later one superseded is 'Raised' (ADR 0060), even when the sale rejected it because its bidder won with the later
 * one. Decided rows add 'Accepted' or 'Rejected'; a status the web does not know shows as 'Processing' (SPEC §3).
 */
export function buyerBadges(row: Pick<UserBidRow, 'kind' | 'status' | 'is_winning' | 'leading' | 'latest'>): RowBadge[] {
  if (isSuperseded(row)) return [RAISED_BADGE];
  const badges: RowBadge[] = [];
  if (row.is_winning) badges.push({ label: 'Winning', tone: 'green' });
  else if (row.status === 'pending') badges.push(row.kind === 'offer' ? { label: 'Offer pending', tone: 'blue' } : { label: 'Outbid', tone: 'red' });
  if (row.status === 'accepted') badges.push({ label: 'Accepted', tone: 'green' });
  else if (row.status === 'rejected') badges.push({ label: 'Rejected', tone: 'gray' });
  else if (row.status !== 'pending') badges.push({ label: 'Processing', tone: 'gray' });
  return badges;
}

/** What a seller row offers (SPEC §2): the four actions on a pending bid, else the decision, else 'No actions'. */
export function sellerActions(status: string): 'actions' | 'Accepted' | 'Rejected' | 'No actions' {
  if (status === 'pending') return 'actions';
  if (status === 'accepted') return 'Accepted';
  if (status === 'rejected') return 'Rejected';
  return 'No actions';
}

export interface BidCounts {
  total: number;
  buyer: number;
  seller: number;
}

/** The footer counts: every row, the user's own bids and the bids on the user's listings. */
export function bidCounts(rows: readonly Pick<UserBidRow, 'role'>[]): BidCounts {
  const buyer = rows.filter((row) => row.role === 'buyer').length;
  return { total: rows.length, buyer, seller: rows.length - buyer };
}

/** A row's date as the viewer's locale writes it; the raw text when it is not a date. */
export function formatBidDate(createdAt: string, locale?: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return createdAt;
  return date.toLocaleDateString(locale, { dateStyle: 'medium' });
}

type DraftRow = Pick<UserBidRow, 'kind' | 'amount' | 'listing_title' | 'bidder_username'>;

/** The compose dialog's prefilled subject (SPEC §2, kept word for word) and body template. */
export function messageDraft(row: DraftRow): { subject: string; body: string } {
  const word = row.kind === 'offer' ? 'offer' : 'bid';
  return {
    subject: `Re: Your bid on "${row.listing_title}"`,
    body:
      `Hi ${row.bidder_username},\n\n` +
      `Thank you for your ${word} of ${formatDollars(row.amount)} on "${row.listing_title}". ` +
      `I'd like to discuss it with you before I decide.\n\nBest regards`,
  };
}

/** The accept confirmation: it names the amount and the bidder, because accepting sells the listing (D8). */
export function acceptConfirmText(row: DraftRow): string {
  const word = row.kind === 'offer' ? 'offer' : 'bid';
  return (
    `Accept the ${word} of ${formatDollars(row.amount)} from ${row.bidder_username} on "${row.listing_title}"?\n\n` +
    `This sells the listing to ${row.bidder_username} and rejects every other pending bid. It cannot be undone.`
  );
}

/** The bid action failure text of SPEC §8: 'Error accepting bid: …' / 'Error rejecting bid: …'. */
export function bidActionError(action: BidAction['action'], error: unknown): string {
  return `Error ${action}ing bid: ${errorDetail(error, 'Unknown error')}`;
}

export type ActionOutcome = { kind: 'success' | 'error'; text: string } | null;

/**
 * Runs a seller's accept or reject: accept only after the user confirms it; null when they did not. Success is the
 * server's message; failure the SPEC §8 text.
 */
export async function performBidAction(
  row: DraftRow,
  action: BidAction['action'],
  deps: { confirm: (text: string) => boolean; send: () => Promise<BidActionResponse> },
): Promise<ActionOutcome> {
  if (action === 'accept' && !deps.confirm(acceptConfirmText(row))) return null;
  try {
    const response = await deps.send();
    const done = action === 'accept' ? 'accepted' : 'rejected';
    return { kind: 'success', text: response.message || `${kindLabel(row.kind)} ${done}.` };
  } catch (failure) {
    return { kind: 'error', text: bidActionError(action, failure) };
  }
}
