import type { EntityManager } from 'typeorm';
import type { ProxyBidDecision } from '@market/domain';
import type { AuctionRecord, BidRecord } from './auctions.repository';

export const BID_COLUMNS = 'id, listing_id, bidder_id, kind, amount::float8 AS amount, status, automatic, created_at';

/** What placing a bid left (ADR 0055): the decision, the bids recorded in order, and what only the caller may see. */
export interface PlacedBid {
  decision: ProxyBidDecision;
  /** The caller's bid: the one they typed, else the automatic one placed for them, else (a raised maximum) their leading bid. */
  bid: BidRecord | null;
  /** Every bid recorded, in order, each with its bid.placed. */
  recorded: BidRecord[];
  price_version?: number;
  /** The caller's maximum here once decided, when they set one; for their answer only. */
  max_amount: number | null;
  /** The auction as the bid left it, for a caller that goes on deciding under the same lock. */
  auction?: AuctionRecord;
}

/**
 * The highest standing bid of each of these bidders in an auction, the earlier on equal amounts (a leader who only
 * raised their maximum answers with it): one statement for a whole batch.
 */
export async function leadingBidsOf(listingId: string, bidderIds: string[], manager: EntityManager): Promise<Map<string, BidRecord>> {
  if (bidderIds.length === 0) return new Map();
  const bids: BidRecord[] = await manager.query(
    `SELECT DISTINCT ON (bidder_id) ${BID_COLUMNS} FROM bids
      WHERE listing_id = $1 AND bidder_id = ANY($2::uuid[]) AND status = 'pending' AND kind = 'bid'
      ORDER BY bidder_id, amount DESC, created_at ASC`,
    [listingId, bidderIds],
  );
  return new Map(bids.map((bid) => [bid.bidder_id, bid]));
}
