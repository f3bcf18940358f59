import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { appendEvent } from '@market/server-kit';
import { buyNowPrice, buyNowRefusal, decideBidAction, decideClose, PENDING_BID_DAYS_AFTER_CLOSE, type BidActionDecision, type CloseOutcome } from '@market/domain';
import { AuctionsRepository, BARRED, BID_COLUMNS, type AuctionRecord, type BidRecord } from '../auctions/auctions.repository';
import { StandingBidsRepository } from './standing-bids.repository';
import { leadingBidOrder } from '../auctions/auction-maximums.repository';

export type CloseResult =
  | { closed: true; outcome: CloseOutcome }
  /** Not closed now: gone, already ended, or its end moved later (then `expires_at` says when). */
  | { closed: false; expires_at: Date | null };

export type ActionResult = { decision: BidActionDecision; bid: BidRecord } | null;

// Statuses in which a sale is over; in any other (active, paused, and a draft or pending listing that still has an end)
// it ends at its end, so its bids never hang.
const ENDED = `('sold', 'expired', 'deleted')`;
/** Why a seller cannot accept a removed member's bid (ADR 0038). */
export const BARRED_BIDDER = "This bidder's account is suspended or closed, so their bid cannot be accepted. Choose another bid.";
const isLive = (auction: Pick<AuctionRecord, 'status'>) => !['sold', 'expired', 'deleted'].includes(auction.status);

/**
 * Ends sales (D8): at expires_at, or when the seller accepts a bid. Every path locks the auction row first and then its
 * bids, so a close that runs twice, two replicas racing, or an accept at the moment of expiry decide one after another;
 * the unique index on accepted bids is the last guard against a second winner.
 */
@Injectable()
export class SalesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly auctions: AuctionsRepository,
    private readonly standing: StandingBidsRepository,
  ) {}

  /**
   * Buys a listing outright (D4) under the auction's lock: the purchase is recorded as the sale's winning bid at the
   * buy-now price, so it races bids, accepts and closes like any other way a sale ends. Null when the listing is unknown.
   */
  buyNow(listingId: string, buyerId: string, now: Date): Promise<{ refusal: string | null; bid: BidRecord | null } | null> {
    return this.auctions.transaction(async (manager) => {
      const auction = await this.auctions.lock(listingId, manager);
      if (!auction) return null;
      if (await this.auctions.isBarred(buyerId, manager)) return { refusal: BARRED, bid: null };
      const refusal = buyNowRefusal(auction, buyerId, now);
      if (refusal) return { refusal, bid: null };
      const bid = await this.auctions.insertBid(auction.listing_id, buyerId, 'buy_now', buyNowPrice(auction) as number, manager);
      await this.sell(auction, bid, 'buy_now', now, manager);
      return { refusal: null, bid: { ...bid, status: 'accepted' } };
    });
  }

  /** Closes one sale if it is live and its end has passed: sold to the highest pending bid, or expired. */
  closeDue(listingId: string, now: Date): Promise<CloseResult> {
    return this.auctions.transaction(async (manager) => {
      const auction = await this.auctions.lock(listingId, manager);
      if (!auction || !isLive(auction)) return { closed: false, expires_at: null };
      if (!auction.expires_at || auction.expires_at.getTime() > now.getTime()) return { closed: false, expires_at: auction.expires_at };
      return { closed: true, outcome: await this.closeLocked(auction, now, manager) };
    });
  }

  /** Ends a locked sale whose end has passed (D8). */
  private async closeLocked(auction: AuctionRecord, now: Date, manager: EntityManager): Promise<CloseOutcome> {
    // A removed member's bid never wins (ADR 0038), even before the moderation sweep has reached this auction; a
    // removed seller's sale does not sell at its end: it expires with its bids open for the seller's 7 days (D8). Of
    // equal amounts the higher, then earlier, maximum wins (ADR 0055).
    const [highest]: BidRecord[] = await manager.query(
      `SELECT ${BID_COLUMNS} FROM bids WHERE id = (
         SELECT b.id FROM bids b LEFT JOIN auction_maximums mx ON mx.listing_id = b.listing_id AND mx.bidder_id = b.bidder_id
         WHERE b.listing_id = $1 AND b.status = 'pending' AND b.kind = 'bid'
           AND NOT EXISTS (SELECT 1 FROM member_states m WHERE m.user_id = b.bidder_id AND m.status <> 'active')
         ORDER BY ${leadingBidOrder('b', 'mx')} LIMIT 1)`,
      [auction.listing_id],
    );
    const sellerBarred = await this.auctions.isBarred(auction.seller_id, manager);
    const outcome = sellerBarred ? ({ outcome: 'expired', reason: 'manual' } as const) : decideClose(auction, highest ?? null);
    if (outcome.outcome === 'sold') {
      await this.sell(auction, highest, 'auction_win', now, manager);
      return outcome;
    }
    await manager.query(`UPDATE auctions SET status = 'expired', closed_at = $2, updated_at = now() WHERE listing_id = $1`, [auction.listing_id, now]);
    const [{ pending }]: { pending: number }[] = await manager.query(`SELECT count(*)::int AS pending FROM bids WHERE listing_id = $1 AND status = 'pending'`, [
      auction.listing_id,
    ]);
    await appendEvent(manager, 'auction.closed', {
      listing_id: auction.listing_id,
      listing_title: auction.title,
      seller_id: auction.seller_id,
      outcome: 'expired',
      reason: outcome.reason,
      winning_bid_id: null,
      buyer_id: null,
      amount: null,
      closed_at: now.toISOString(),
      pending_bids: pending,
    });
    return outcome;
  }

  /** The seller accepts or rejects one pending bid or offer; accepting sells the listing and rejects the rest. */
  decide(bidId: string, actorId: string, action: 'accept' | 'reject', now: Date): Promise<ActionResult> {
    return this.auctions.transaction(async (manager) => {
      const [found]: { listing_id: string }[] = await manager.query('SELECT listing_id FROM bids WHERE id = $1', [bidId]);
      if (!found) return null;
      // Auction row first, then the bid: the same order as every other path.
      const locked = await this.auctions.lock(found.listing_id, manager);
      if (!locked) return null;
      // A sale whose end has passed ends first, as its close job would have (D8): an auto auction's highest bid wins
      // even if the seller acts in the moment before the job runs.
      const overdue = isLive(locked) && locked.expires_at !== null && locked.expires_at.getTime() <= now.getTime();
      if (overdue) await this.closeLocked(locked, now, manager);
      const auction = overdue ? await this.auctions.lock(found.listing_id, manager) : locked;
      const [bid]: BidRecord[] = await manager.query(`SELECT ${BID_COLUMNS} FROM bids WHERE id = $1 FOR UPDATE`, [bidId]);
      if (!auction || !bid) return null;
      const decision = decideBidAction(auction, bid, actorId, action, now);
      if (!decision.allowed) return { decision, bid };
      if (decision.sale === null) {
        // A public bid leaves the auction's history with its price (ADR 0038); an offer was never public.
        await manager.query(`UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = CASE WHEN kind = 'bid' THEN $2::timestamptz END WHERE id = $1`, [
          bidId,
          now,
        ]);
        await appendEvent(manager, 'bid.rejected', {
          bid_id: bidId,
          listing_id: bid.listing_id,
          bidder_id: bid.bidder_id,
          amount: bid.amount,
          listing_title: auction.title,
          kind: bid.kind,
        });
        // The public price, count and reserve state follow at once, in this transaction (ADR 0038).
        if (bid.kind === 'bid') await this.standing.reprice(auction, 'bid_rejected', now, manager, bid.bidder_id);
        return { decision, bid: { ...bid, status: 'rejected' } };
      }
      // A suspended or deleted member's bid is never sold to, as at a close (ADR 0038): the sweep takes it back soon.
      if (await this.auctions.isBarred(bid.bidder_id, manager)) {
        return { decision: { allowed: false, status: 400, reason: BARRED_BIDDER }, bid };
      }
      await this.sell(auction, bid, decision.sale, now, manager);
      return { decision, bid: { ...bid, status: 'accepted' } };
    });
  }

  /** Live sales whose end has passed (the sweep closes them if their job was lost). */
  async dueListingIds(now: Date, limit: number): Promise<string[]> {
    const rows: { listing_id: string }[] = await this.dataSource.query(
      `SELECT listing_id FROM auctions WHERE status NOT IN ${ENDED} AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.listing_id);
  }

  /** Live sales with an end, in listing id order after `afterId`, for re-creating their close jobs. */
  liveEnds(afterId: string | null, limit: number): Promise<{ listing_id: string; expires_at: Date }[]> {
    return this.dataSource.query(
      `SELECT listing_id, expires_at FROM auctions WHERE status NOT IN ${ENDED} AND expires_at IS NOT NULL
         AND ($1::uuid IS NULL OR listing_id > $1::uuid) ORDER BY listing_id LIMIT $2`,
      [afterId, limit],
    );
  }

  /** Rejects pending bids of sales that ended unsold more than the seller's window ago (D8); returns how many. */
  async rejectLapsed(now: Date): Promise<number> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE bids SET status = 'rejected', decided_at = $1 FROM auctions a
       WHERE bids.listing_id = a.listing_id AND bids.status = 'pending' AND a.closed_at IS NOT NULL
         AND a.closed_at <= $1::timestamptz - make_interval(days => $2::int)`,
      [now, PENDING_BID_DAYS_AFTER_CLOSE],
    );
    return count;
  }

  /** Marks the sale sold to `winner`, rejects every other pending bid, and writes bid.accepted and auction.closed. */
  private async sell(
    auction: AuctionRecord,
    winner: BidRecord,
    sale: 'auction_win' | 'bid_accepted' | 'accepted_after_close' | 'buy_now',
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(`UPDATE bids SET status = 'accepted', decided_at = $2 WHERE id = $1`, [winner.id, now]);
    // The sale's losing bids stay in its history; a removed member's (not yet swept) leaves it (ADR 0038).
    await manager.query(
      `UPDATE bids SET status = 'rejected', decided_at = $2, withdrawn_at = CASE WHEN EXISTS (
         SELECT 1 FROM member_states m WHERE m.user_id = bids.bidder_id AND m.status <> 'active') THEN $2::timestamptz END
       WHERE listing_id = $1 AND status = 'pending'`,
      [auction.listing_id, now],
    );
    await manager.query(
      `UPDATE auctions SET status = 'sold', winning_bid_id = $2, closed_at = COALESCE(closed_at, $3), updated_at = now() WHERE listing_id = $1`,
      [auction.listing_id, winner.id, now],
    );
    const common = { listing_id: auction.listing_id, listing_title: auction.title, seller_id: auction.seller_id, amount: winner.amount };
    const reason = sale === 'auction_win' ? 'won' : sale === 'buy_now' ? 'bought' : 'accepted';
    await appendEvent(manager, 'bid.accepted', { ...common, website_url: auction.website_url, bid_id: winner.id, buyer_id: winner.bidder_id, kind: winner.kind, sale, accepted_at: now.toISOString() });
    // An unsold end was announced when it happened; a sale after it is told by bid.accepted alone.
    if (auction.closed_at === null) {
      await appendEvent(manager, 'auction.closed', {
        ...common,
        outcome: 'sold',
        reason,
        winning_bid_id: winner.id,
        buyer_id: winner.bidder_id,
        closed_at: now.toISOString(),
        pending_bids: 0,
      });
    }
  }
}
