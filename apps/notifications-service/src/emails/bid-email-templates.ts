import { formatDollars } from '@market/domain';
import type { EventPayloads } from '@market/contracts';
import type { Notice } from './notice';

const listingPath = (id: string) => `/listing/${encodeURIComponent(id)}`;
const date = (value: Date | string) => new Date(value).toUTCString().replace(' GMT', ' UTC');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a seller's digest says about one listing's new bids (ADR 0056): counts and the public state, never a maximum. */
export interface BidDigest {
  id: string;
  listing_id: string;
  listing_title: string;
  /** Bids recorded in the window, automatic ones (placed for a bidder's maximum) included. */
  bids: number;
  automatic_bids: number;
  first_bid_at: Date;
  last_bid_at: Date;
  /** The auction's public state after the newest bid of the window. */
  current_bid: number;
  bid_count: number;
  reserve_met: boolean;
  expires_at: Date | null;
  /** A bid of the window came in the final minutes and moved the end (D9). */
  extended: boolean;
}

/**
 * D19 (outbid), ADR 0056: the bidder whose highest bid or maximum another bidder passed. It names the current price
 * only: the event carries no maximum, and the new leader's must never be guessed from an email.
 */
export function outbidNotice(e: EventPayloads['bid.placed']): Notice {
  return {
    subject: `You've been outbid on "${e.listing_title}"`,
    paragraphs: [
      `Another bidder has passed your highest bid on "${e.listing_title}". The current price is ${formatDollars(e.current_bid)}.`,
      ...(e.expires_at ? [`The auction ends at ${date(e.expires_at)}. Bid again to get back in the lead.`] : []),
    ],
    link_path: listingPath(e.listing_id),
    action: 'Bid again',
  };
}

/** D19 (new bid), ADR 0056: one email to the seller for the bids a listing received in one window. */
export function bidDigestNotice(d: BidDigest): Notice {
  const when = d.bids === 1 ? `at ${date(d.first_bid_at)}` : `between ${date(d.first_bid_at)} and ${date(d.last_bid_at)}`;
  const automatic = d.automatic_bids > 0 ? ` (${d.automatic_bids} placed automatically up to bidders' maximums)` : '';
  const end = d.expires_at
    ? d.extended
      ? [`Bids in the final minutes extended the auction: it now ends at ${date(d.expires_at)}.`]
      : [`The auction ends at ${date(d.expires_at)}.`]
    : [];
  return {
    subject: `${d.bids === 1 ? 'A new bid' : `${d.bids} new bids`} on "${d.listing_title}": now ${formatDollars(d.current_bid)}`,
    paragraphs: [
      `"${d.listing_title}" received ${plural(d.bids, 'new bid')}${automatic} ${when}.`,
      `The current bid is ${formatDollars(d.current_bid)}, with ${plural(d.bid_count, 'bid')} in all. ${d.reserve_met ? 'It meets your reserve.' : 'It is below your reserve.'}`,
      ...end,
    ],
    link_path: listingPath(d.listing_id),
    action: 'View your listing',
  };
}
