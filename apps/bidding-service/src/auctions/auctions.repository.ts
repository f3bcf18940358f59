import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import { appendEvent } from '@market/server-kit';
import { decideBid, type AuctionState, type BidDecision, type ListingStatus } from '@market/domain';

/** An auction row as stored; money as numbers (bigint cast, always whole dollars). */
export interface AuctionRecord extends AuctionState {
  listing_id: string;
  buy_now_price: number | null;
}

export interface BidRecord {
  id: string;
  listing_id: string;
  bidder_id: string;
  amount: number;
  status: 'pending' | 'accepted' | 'rejected';
  created_at: Date;
}

const AUCTION_COLUMNS = `listing_id, seller_id, listing_type, auction_type, status, starting_price::float8 AS starting_price,
  reserve_price::float8 AS reserve_price, buy_now_price::float8 AS buy_now_price, current_bid::float8 AS current_bid, bid_count, expires_at`;

type ListingTerms = Pick<EventPayloads['listing.updated'], 'listing_id' | 'seller_id' | 'status' | 'listing_type' | 'auction_type' | 'starting_price' | 'reserve_price' | 'buy_now_price' | 'expires_at' | 'updated_at'>;

/** The only place that reads and writes bidding.auctions and bidding.bids. */
@Injectable()
export class AuctionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Applies a listing's sale terms from a listing event, unless a newer version is already applied. The end time
   * only moves later here: soft close (D9) may have extended it beyond what the listings service knows.
   */
  async applyListing(terms: ListingTerms, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO auctions (listing_id, seller_id, listing_type, auction_type, status, starting_price, reserve_price, buy_now_price,
         expires_at, source_updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (listing_id) DO UPDATE SET
         listing_type = EXCLUDED.listing_type, auction_type = EXCLUDED.auction_type, status = EXCLUDED.status,
         starting_price = EXCLUDED.starting_price, reserve_price = EXCLUDED.reserve_price, buy_now_price = EXCLUDED.buy_now_price,
         expires_at = CASE WHEN EXCLUDED.expires_at IS NULL THEN NULL ELSE GREATEST(auctions.expires_at, EXCLUDED.expires_at) END,
         source_updated_at = EXCLUDED.source_updated_at, updated_at = now()
       WHERE auctions.source_updated_at <= EXCLUDED.source_updated_at`,
      [
        terms.listing_id, terms.seller_id, terms.listing_type, terms.auction_type, terms.status, terms.starting_price,
        terms.reserve_price, terms.buy_now_price, terms.expires_at, terms.updated_at,
      ],
    );
  }

  /** Forgets a deleted listing and its bids. */
  async removeListing(listingId: string, manager: EntityManager): Promise<void> {
    await manager.query('DELETE FROM auctions WHERE listing_id = $1', [listingId]);
  }

  async findAuction(listingId: string): Promise<AuctionRecord | null> {
    const rows: AuctionRecord[] = await this.dataSource.query(`SELECT ${AUCTION_COLUMNS} FROM auctions WHERE listing_id = $1`, [listingId]);
    return rows[0] ? { ...rows[0], status: rows[0].status as ListingStatus } : null;
  }

  /**
   * Places one bid race-safely: the auction row is locked for the decision, the bid inserted and the state updated in
   * one transaction with its bid.placed event, so concurrent bids on one listing are decided one after another and no
   * update is lost.
   * Returns null when the listing has no auction here.
   */
  async placeBid(
    listingId: string,
    bidderId: string,
    amount: number,
    now: Date,
    antiSnipingMinutes: number,
  ): Promise<{ decision: BidDecision; bid: BidRecord | null } | null> {
    return this.dataSource.transaction(async (manager) => {
      const [auction]: AuctionRecord[] = await manager.query(`SELECT ${AUCTION_COLUMNS} FROM auctions WHERE listing_id = $1 FOR UPDATE`, [listingId]);
      if (!auction) return null;
      const decision = decideBid(auction, { bidder_id: bidderId, amount }, now, antiSnipingMinutes);
      if (!decision.accepted) return { decision, bid: null };
      const [bid]: BidRecord[] = await manager.query(
        `INSERT INTO bids (id, listing_id, bidder_id, amount) VALUES ($1, $2, $3, $4)
         RETURNING id, listing_id, bidder_id, amount::float8 AS amount, status, created_at`,
        [randomUUID(), listingId, bidderId, amount],
      );
      await manager.query(
        'UPDATE auctions SET current_bid = $2, bid_count = $3, expires_at = $4, updated_at = now() WHERE listing_id = $1',
        [listingId, decision.current_bid, decision.bid_count, decision.expires_at],
      );
      await appendEvent(manager, 'bid.placed', {
        bid_id: bid.id,
        listing_id: listingId,
        bidder_id: bidderId,
        amount: bid.amount,
        current_bid: decision.current_bid,
        bid_count: decision.bid_count,
        expires_at: decision.expires_at?.toISOString() ?? null,
        extended: decision.extended,
        created_at: bid.created_at.toISOString(),
      });
      return { decision, bid };
    });
  }

  /** A listing's bids, newest first. */
  bidsFor(listingId: string, limit: number): Promise<BidRecord[]> {
    return this.dataSource.query(
      `SELECT id, listing_id, bidder_id, amount::float8 AS amount, status, created_at FROM bids WHERE listing_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [listingId, limit],
    );
  }
}
