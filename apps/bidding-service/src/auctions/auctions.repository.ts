import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { BidKind } from '@market/contracts';
import { leadingBidOrder } from './auction-maximums.repository';
import { auctionReads } from './auction-reads.repository';
import { lockBoundedTransaction } from './bounded-transaction';
import { AUCTION_COLUMNS, BID_COLUMNS, type AppliedTerms, type AuctionRecord, type BidRecord, type ListingTerms, type UserBidRecord } from './auction.records';

export { AUCTION_COLUMNS, BID_COLUMNS, type AppliedTerms, type AuctionRecord, type BidRecord, type ListingTerms, type PlacedBid, type UserBidRecord } from './auction.records';

/** Reads and writes of bidding.auctions and its bids (ADR 0070): the use cases (PlaceBids, PlaceOffer, EndSales) decide. */
@Injectable()
export class AuctionsRepository {
  private readonly reads: ReturnType<typeof auctionReads>;

  constructor(private readonly dataSource: DataSource) {
    this.reads = auctionReads(dataSource, AUCTION_COLUMNS);
  }

  /** A transaction that waits at most 2 s for any row lock; a longer wait is a clear 503 and changes nothing (ADR 0062). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return lockBoundedTransaction(this.dataSource, work);
  }

  /**
   * Applies a listing's sale terms from a listing event, unless a newer version is already applied. The end time only
   * moves later here: soft close (D9) may have extended it beyond what the listings service knows. A sale this service
   * ended stays ended, except that a re-approval (`reopen`) of an unsold listing starts a new period; a sale is final.
   */
  async applyListing(terms: ListingTerms, manager: EntityManager, reopen = false): Promise<AppliedTerms | null> {
    const rows: AppliedTerms[] = await manager.query(
      `INSERT INTO auctions (listing_id, seller_id, title, listing_type, auction_type, status, starting_price, reserve_price, buy_now_price,
         expires_at, source_updated_at, closed_at, website_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $6 IN ('sold', 'expired') THEN now() END, $13)
       ON CONFLICT (listing_id) DO UPDATE SET
         title = EXCLUDED.title, website_url = EXCLUDED.website_url, listing_type = EXCLUDED.listing_type, auction_type = EXCLUDED.auction_type,
         starting_price = EXCLUDED.starting_price, reserve_price = EXCLUDED.reserve_price, buy_now_price = EXCLUDED.buy_now_price,
         status = CASE
           WHEN auctions.winning_bid_id IS NOT NULL THEN 'sold'
           WHEN $12 THEN EXCLUDED.status
           WHEN auctions.closed_at IS NOT NULL THEN auctions.status
           ELSE EXCLUDED.status END,
         closed_at = CASE
           WHEN auctions.winning_bid_id IS NOT NULL THEN auctions.closed_at
           WHEN $12 THEN NULL
           WHEN auctions.closed_at IS NOT NULL THEN auctions.closed_at
           WHEN EXCLUDED.status IN ('sold', 'expired') THEN now() END,
         expires_at = CASE WHEN EXCLUDED.expires_at IS NULL THEN NULL ELSE GREATEST(auctions.expires_at, EXCLUDED.expires_at) END,
         source_updated_at = EXCLUDED.source_updated_at, updated_at = now()
       WHERE auctions.source_updated_at <= EXCLUDED.source_updated_at
       RETURNING status, expires_at`,
      [
        terms.listing_id, terms.seller_id, terms.title, terms.listing_type, terms.auction_type, terms.status, terms.starting_price,
        terms.reserve_price, terms.buy_now_price, terms.expires_at, terms.updated_at, reopen, terms.website_url ?? null,
      ],
    );
    return rows[0] ?? null;
  }

  /**
   * A deleted listing's sale ends for good: the row stays as a tombstone (status deleted, newest possible version) so a
   * listing event that arrives late can never bring the sale back; its pending bids are rejected.
   */
  async removeListing(listing: { listing_id: string; seller_id: string }, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO auctions (listing_id, seller_id, listing_type, auction_type, status, starting_price, source_updated_at, closed_at)
       VALUES ($1, $2, 'auction', 'auto', 'deleted', 1, 'infinity', now())
       ON CONFLICT (listing_id) DO UPDATE SET status = 'deleted', source_updated_at = 'infinity', closed_at = COALESCE(auctions.closed_at, now()),
         updated_at = now()`,
      [listing.listing_id, listing.seller_id],
    );
    await manager.query(`UPDATE bids SET status = 'rejected', decided_at = now() WHERE listing_id = $1 AND status = 'pending'`, [listing.listing_id]);
  }

  /** A listing's auction as it stands, unlocked; the reads of one turn of the event loop share a statement (ADR 0062). */
  findAuction(listingId: string): Promise<AuctionRecord | null> {
    return this.reads(listingId);
  }

  /** A listing's public bids (never offers, nor bids withdrawn before the end, ADR 0038), newest first. */
  bidsFor(listingId: string, limit: number): Promise<BidRecord[]> {
    return this.dataSource.query(
      `SELECT ${BID_COLUMNS} FROM bids WHERE listing_id = $1 AND kind = 'bid' AND withdrawn_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2`,
      [listingId, limit],
    );
  }

  /**
   * A user's bids and offers as buyer, and those on the user's listings as seller, newest first. A bid is winning when
   * it was accepted, or is the highest pending bid of a sale not yet sold (the one the close would pick, or the seller
   * may still accept for 7 days after an unsold end) — a bid the seller rejected never leads.
   */
  userBids(userId: string, limit: number): Promise<UserBidRecord[]> {
    // A maximum is shown only to its owner (ADR 0055): on the actor's own rows, never on the rows of their listings.
    // `leading` and `latest` let a row say where its bidder stands on the listing, not only what this one bid did
    // (ADR 0060): an older bid of the leader is superseded by their own later bid, not outbid.
    const select = (role: 'buyer' | 'seller') => `
      SELECT b.id, b.listing_id, b.bidder_id, b.kind, b.amount::float8 AS amount, b.status, b.automatic, b.created_at, a.title AS listing_title,
        a.current_bid::float8 AS current_bid, '${role}' AS role,
        (b.status = 'accepted' OR (b.status = 'pending' AND b.kind = 'bid' AND b.id = lead.id)) AS is_winning,
        (EXISTS (SELECT 1 FROM bids w WHERE w.listing_id = b.listing_id AND w.status = 'accepted' AND w.bidder_id = b.bidder_id)
          OR (b.kind = 'bid' AND lead.bidder_id IS NOT DISTINCT FROM b.bidder_id)) AS leading,
        NOT EXISTS (SELECT 1 FROM bids n WHERE n.listing_id = b.listing_id AND n.bidder_id = b.bidder_id AND n.kind = b.kind
          AND (n.created_at, n.id) > (b.created_at, b.id)) AS latest,
        ${role === 'buyer' ? `(SELECT m.max_amount::float8 FROM auction_maximums m WHERE m.listing_id = b.listing_id AND m.bidder_id = b.bidder_id AND m.proxy)` : 'NULL::float8'} AS max_amount
      FROM bids b JOIN auctions a ON a.listing_id = b.listing_id
      LEFT JOIN LATERAL (
        SELECT h.id, h.bidder_id FROM bids h LEFT JOIN auction_maximums hm ON hm.listing_id = h.listing_id AND hm.bidder_id = h.bidder_id
        WHERE h.listing_id = b.listing_id AND h.status = 'pending' AND h.kind = 'bid' AND a.status NOT IN ('sold', 'deleted')
        ORDER BY ${leadingBidOrder('h', 'hm')} LIMIT 1) lead ON true
      WHERE ${role === 'buyer' ? 'b.bidder_id' : 'a.seller_id'} = $1`;
    return this.dataSource.query(
      `(${select('buyer')} ORDER BY b.created_at DESC LIMIT $2) UNION ALL (${select('seller')} ORDER BY b.created_at DESC LIMIT $2)
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [userId, limit],
    );
  }

  /** Whether moderation removed the member (suspended or deleted, ADR 0038): their bids and offers are refused. */
  async isBarred(userId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM member_states WHERE user_id = $1 AND status <> 'active'`, [userId]);
    return rows.length > 0;
  }

  /** Loads an auction and locks its row for the rest of the transaction. */
  async lock(listingId: string, manager: EntityManager): Promise<AuctionRecord | null> {
    const [auction]: AuctionRecord[] = await manager.query(`SELECT ${AUCTION_COLUMNS} FROM auctions WHERE listing_id = $1 FOR UPDATE`, [listingId]);
    return auction ?? null;
  }

  /** Inserts a bid, offer or buy-now record (the caller holds the auction's lock). */
  async insertBid(listingId: string, bidderId: string, kind: BidKind, amount: number, manager: EntityManager): Promise<BidRecord> {
    const [bid]: BidRecord[] = await manager.query(
      `INSERT INTO bids (id, listing_id, bidder_id, kind, amount) VALUES ($1, $2, $3, $4, $5) RETURNING ${BID_COLUMNS}`,
      [randomUUID(), listingId, bidderId, kind, amount],
    );
    return bid;
  }
}
