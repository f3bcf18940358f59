import { randomUUID } from 'node:crypto';
import type { EventPayloads } from '@market/contracts';
import type { ProxyBidDecision } from '@market/domain';
import { checkEventPayload } from '@market/server-kit';
import type { AuctionRecord } from '../auctions/auction.records';
import { stampAfter } from '../auctions/database-clock';

export type BidPlacedPayload = EventPayloads['bid.placed'];

/**
 * The bid.placed payload of the `n`th bid an accepted decision records on `auction` as it stood before the decision
 * (the one place this event is built). `created_at` is the stamp the recording statement gives it: `micros`
 * microseconds after the batch's database clock (ADR 0065), so the event is whole, and signed, before it is written.
 */
export function bidPlacedPayload(
  auction: AuctionRecord,
  decision: Extract<ProxyBidDecision, { accepted: true }>,
  n: number,
  bidderName: string,
  clock: string,
  micros: number,
): BidPlacedPayload {
  const placed = decision.bids[n];
  const payload: BidPlacedPayload = {
    bid_id: randomUUID(),
    listing_id: auction.listing_id,
    bidder_id: placed.bidder_id,
    bidder_name: bidderName,
    amount: placed.amount,
    current_bid: placed.amount,
    bid_count: auction.bid_count + n + 1,
    reserve_met: auction.reserve_price === null || placed.amount >= auction.reserve_price,
    expires_at: decision.expires_at?.toISOString() ?? null,
    // Soft close moved the end once, with the first bid of the decision (D9).
    extended: decision.extended && n === 0,
    seller_id: auction.seller_id,
    listing_title: auction.title,
    previous_leader_id: placed.previous_leader_id,
    price_version: auction.price_version + n + 1,
    automatic: placed.automatic,
    created_at: stampAfter(clock, micros),
  };
  checkEventPayload('bid.placed', payload);
  return payload;
}
