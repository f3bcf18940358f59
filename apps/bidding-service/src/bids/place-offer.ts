import { Injectable } from '@nestjs/common';
import { appendEvent } from '@market/server-kit';
import { offerRefusal } from '@market/domain';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { AuctionRecord, BidRecord } from '../auctions/auction.records';
import { buyerRefusal } from '../auctions/bidding.policy';

/**
 * Making an offer on a fixed-price listing (D5, ADR 0070) under the auction's row lock, with offer.made for the seller.
 * Offers are private: the public price and bid count stay as they are.
 */
@Injectable()
export class PlaceOffer {
  constructor(private readonly auctions: AuctionsRepository) {}

  /** Places the offer, or answers why not; null when the listing has no sale here. */
  place(listingId: string, bidderId: string, amount: number, now: Date): Promise<{ refusal: string | null; bid: BidRecord | null; auction: AuctionRecord } | null> {
    return this.auctions.transaction(async (manager) => {
      const auction = await this.auctions.lock(listingId, manager);
      if (!auction) return null;
      const refusal = buyerRefusal({ barred: await this.auctions.isBarred(bidderId, manager) }) ?? offerRefusal(auction, { bidder_id: bidderId, amount }, now);
      if (refusal) return { refusal, bid: null, auction };
      const bid = await this.auctions.insertBid(auction.listing_id, bidderId, 'offer', amount, manager);
      await appendEvent(manager, 'offer.made', {
        bid_id: bid.id,
        listing_id: auction.listing_id,
        seller_id: auction.seller_id,
        bidder_id: bidderId,
        amount: bid.amount,
        created_at: bid.created_at.toISOString(),
        listing_title: auction.title,
      });
      return { refusal: null, bid, auction };
    });
  }
}
