import { Injectable } from '@nestjs/common';
import type {
  Actor,
  BidActionResponse,
  BidDto,
  BidHistoryResponse,
  BuyNowSale,
  MyStanding,
  PlaceBid,
  PlaceBidResponse,
  UserBidRow,
  UserBidsResponse,
} from '@market/contracts';
import {
  auctionRefusal,
  BUYING_HOLD_MESSAGE,
  decideBid,
  DEFAULT_ANTI_SNIPING_MINUTES,
  maximumRefusal,
  minimumNextBid,
  needsPaymentMethod,
  NO_MAXIMUM_ON_OFFERS,
} from '@market/domain';
import { badRequest, forbidden, notFound, OutboxRelay, publicProfiles, requireActor, requireMayCommit, ServiceRpc, SettingsClient } from '@market/server-kit';
import { AuctionsRepository, type AuctionRecord, type BidRecord } from '../auctions/auctions.repository';
import { EndSales } from '../sales/end-sales';
import { PlaceOffer } from './place-offer';
import { CloseJobs } from '../close/close-jobs';
import { BidderNames, UNKNOWN_BIDDER } from './bidder-names';
import { SaleTermsKeeper } from '../listing-terms/sale-terms';
import { PaymentMethodCheck } from './payment-method.check';
import { BuyerStrikesRepository } from '../holds/buyer-strikes.repository';
import { BidQueue } from './bid-queue';
import { MyStandingRepository } from './my-standing.repository';

const HISTORY_SIZE = 10;
const USER_BIDS_LIMIT = 500;
/** What a bidder is told when an earlier, higher maximum answered their bid at once (ADR 0055). */
export const OUTBID_AT_ONCE = "Bid placed, but another bidder's maximum is higher: you have been outbid.";
/** What the leader is told when their request only raised their maximum (ADR 0055). */
export const MAXIMUM_RAISED = 'Your maximum bid was raised.';

/** Bids (D6, D9) decided in batches per listing (ADR 0058) and offers (D5) placed one at a time; the seller's accept or reject (D8); My Bids. */
@Injectable()
export class BidsService {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly sales: EndSales,
    private readonly offers: PlaceOffer,
    private readonly closeJobs: CloseJobs,
    private readonly relay: OutboxRelay,
    private readonly rpc: ServiceRpc,
    private readonly settings: SettingsClient,
    private readonly names: BidderNames,
    private readonly terms: SaleTermsKeeper,
    private readonly cards: PaymentMethodCheck,
    private readonly strikes: BuyerStrikesRepository,
    private readonly queue: BidQueue,
    private readonly standings: MyStandingRepository,
  ) {}

  /** Two unpaid purchases within 90 days put a member's buying on hold until an admin lifts it (ADR 0043). */
  private async requireNotOnHold(userId: string): Promise<void> {
    if (await this.strikes.onHoldNow(userId)) throw forbidden(BUYING_HOLD_MESSAGE);
  }

  /**
   * Places a bid (auction) or an offer (fixed price) for the actor; a broken rule is a 400 with its reason. A listing
   * not heard of yet has its terms asked of listings-service first (ADR 0036). Bidding and offering need a verified
   * email while the platform requires one (ADR 0037); a large bid or maximum, a verified card (ADR 0041). `max_amount`
   * makes it a proxy bid on an automatic auction (ADR 0055); the answer's `max_amount` is the caller's own.
   */
  async place(actor: Actor | null, input: PlaceBid): Promise<PlaceBidResponse> {
    const bidder = requireActor(actor);
    const [known, name, settings, held] = await Promise.all([
      this.auctions.findAuction(input.listing_id),
      this.names.of(bidder.user_id),
      this.settings.get(),
      this.strikes.onHoldNow(bidder.user_id),
    ]);
    const auction = known ?? (await this.learned(bidder, input.listing_id));
    if (!auction) throw notFound('Listing not found');
    requireMayCommit(bidder, auction.listing_type === 'fixed' ? 'offer' : 'bid', settings);
    // Read with the auction; a bid's batch reads it again under the lock, where it decides (ADR 0062).
    if (held) throw forbidden(BUYING_HOLD_MESSAGE);
    const maxAmount = input.max_amount ?? null;
    if (auction.listing_type === 'fixed') {
      if (maxAmount !== null) throw badRequest(NO_MAXIMUM_ON_OFFERS);
      return this.offer(bidder.user_id, name, input);
    }
    const softClose = settings.anti_sniping_minutes ?? DEFAULT_ANTI_SNIPING_MINUTES;
    // The price only rises: a bid the unlocked row already refuses would be refused under the lock too. With a maximum
    // the amount may be under the minimum (the leader raising it, ADR 0055), which only the lock can tell.
    const early = decideBid(auction, { bidder_id: bidder.user_id, amount: input.amount }, new Date(), softClose);
    const refusal =
      maxAmount === null ? (early.accepted ? null : early.reason) : (maximumRefusal(auction, input.amount, maxAmount) ?? auctionRefusal(auction, bidder.user_id, new Date()));
    if (refusal) throw badRequest(refusal);
    // A bid or a maximum far above the price needs a verified card (ADR 0041): a maximum commits the bidder as a bid
    // does. The unlocked minimum is at most the locked one, so this never lets through one the lock would have asked for.
    const minimum = minimumNextBid(auction.starting_price, auction.current_bid);
    if (needsPaymentMethod(Math.max(input.amount, maxAmount ?? 0), minimum)) await this.cards.require(bidder, minimum);
    // Decided in arrival order with the bids that came with it, in one transaction under the row lock (ADR 0058).
    const placed = await this.queue.place(auction.listing_id, {
      bidder: { id: bidder.user_id, name },
      amount: input.amount,
      max_amount: maxAmount,
      now: new Date(),
      anti_sniping_minutes: softClose,
    });
    if (!placed) throw notFound('Listing not found');
    const { decision, bid } = placed;
    if (!decision.accepted && decision.reason === BUYING_HOLD_MESSAGE) throw forbidden(BUYING_HOLD_MESSAGE);
    if (!decision.accepted || !bid) throw badRequest(decision.accepted ? 'Error placing bid' : decision.reason);
    this.relay.kick();
    // The bid is stored: its answer never waits on Redis (the old job finds the sale not due and re-adds the new one).
    if (decision.extended && decision.expires_at) void this.closeJobs.schedule(input.listing_id, decision.expires_at, auction.expires_at);
    return {
      message: !decision.price_changed ? MAXIMUM_RAISED : decision.leading ? 'Bid placed successfully' : OUTBID_AT_ONCE,
      kind: 'bid',
      bid: toDto(bid, name),
      current_bid: decision.current_bid,
      bid_count: decision.bid_count,
      expires_at: decision.expires_at?.toISOString() ?? null,
      extended: decision.extended,
      price_version: placed.price_version,
      leading: decision.leading,
      max_amount: placed.max_amount,
    };
  }

  /** The seller accepts or rejects a pending bid or offer (SPEC §7 POST /bids/{id}/action). */
  async act(actor: Actor | null, bidId: string, action: 'accept' | 'reject'): Promise<BidActionResponse> {
    const seller = requireActor(actor);
    const result = await this.sales.decide(bidId, seller.user_id, action, new Date());
    if (!result) throw notFound('Bid not found');
    const { decision, bid } = result;
    if (!decision.allowed) {
      if (decision.status === 403) throw forbidden(decision.reason);
      throw badRequest(decision.reason);
    }
    this.relay.kick();
    return { success: true, message: action === 'accept' ? 'Bid accepted: the listing is sold' : 'Bid rejected', bid: { id: bid.id, status: bid.status } };
  }

  /**
   * Buys a listing at its buy-now price (D4); billing turns the sale into an invoice and a payment. A listing not heard
   * of yet has its terms asked of listings-service first (ADR 0036). Buying needs a verified email while the platform
   * requires one (ADR 0037).
   */
  async buyNow(actor: Actor | null, listingId: string): Promise<BuyNowSale> {
    const buyer = requireMayCommit(actor, 'buy', await this.settings.get());
    await this.requireNotOnHold(buyer.user_id);
    let bought = await this.sales.buyNow(listingId, buyer.user_id, new Date());
    if (!bought && (await this.terms.learn(buyer, listingId))) bought = await this.sales.buyNow(listingId, buyer.user_id, new Date());
    if (!bought) throw notFound('Listing not found');
    if (bought.refusal || !bought.bid) throw badRequest(bought.refusal ?? 'Error processing purchase. Please try again.');
    this.relay.kick();
    return { bid_id: bought.bid.id, listing_id: listingId, amount: bought.bid.amount };
  }

  /** The latest public bids of a listing, newest first (SPEC §9: 10). */
  async history(listingId: string): Promise<BidHistoryResponse> {
    const bids = await this.auctions.bidsFor(listingId, HISTORY_SIZE);
    const names = await publicProfiles(this.rpc, bids.map((b) => b.bidder_id));
    return { bids: bids.map((b) => toDto(b, names.get(b.bidder_id)?.username ?? UNKNOWN_BIDDER)) };
  }

  /** The actor's bids as buyer and the bids on the actor's listings as seller (the My Bids tab). */
  async userBids(actor: Actor | null): Promise<UserBidsResponse> {
    const user = requireActor(actor);
    const rows = await this.auctions.userBids(user.user_id, USER_BIDS_LIMIT);
    const profiles = await publicProfiles(this.rpc, rows.map((r) => r.bidder_id));
    return {
      bids: rows.map(
        (r): UserBidRow => ({
          id: r.id,
          listing_id: r.listing_id,
          listing_title: r.listing_title,
          current_bid: r.current_bid,
          role: r.role,
          kind: r.kind,
          bidder_id: r.bidder_id,
          bidder_username: profiles.get(r.bidder_id)?.username ?? UNKNOWN_BIDDER,
          bidder_verified: profiles.get(r.bidder_id)?.verified ?? false,
          amount: r.amount,
          status: r.status,
          is_winning: r.is_winning,
          leading: r.leading,
          latest: r.latest,
          automatic: r.automatic,
          // Only the actor's own maximum, on their own rows (ADR 0055): the query gives none on a seller's rows.
          max_amount: r.role === 'buyer' && r.bidder_id === user.user_id ? r.max_amount : null,
          created_at: r.created_at.toISOString(),
        }),
      ),
    };
  }

  /**
   * The actor's own standing on one listing (ADR 0060), read by (listing, bidder) so a hot auction's viewers cost one
   * small query each, not their whole My Bids. Never another bidder's maximum; a listing unknown here is "no stake".
   */
  async myStanding(actor: Actor | null, listingId: string): Promise<MyStanding> {
    const user = requireActor(actor);
    const own = await this.standings.of(listingId, user.user_id);
    return {
      listing_id: listingId,
      has_bid: own.has_bid,
      leading: own.leading,
      max_amount: own.max_amount,
      max_passed: own.max_amount !== null && !own.leading,
    };
  }

  /** The auction of a listing this service had not heard of, once listings-service told its terms; null if it has none. */
  private async learned(actor: Actor, listingId: string): Promise<AuctionRecord | null> {
    return (await this.terms.learn(actor, listingId)) ? this.auctions.findAuction(listingId) : null;
  }

  private async offer(bidderId: string, bidderName: string, input: PlaceBid): Promise<PlaceBidResponse> {
    const placed = await this.offers.place(input.listing_id, bidderId, input.amount, new Date());
    if (!placed) throw notFound('Listing not found');
    if (placed.refusal || !placed.bid) throw badRequest(placed.refusal ?? 'Error placing bid');
    this.relay.kick();
    return {
      message: 'Offer sent to the seller',
      kind: 'offer',
      bid: toDto(placed.bid, bidderName),
      current_bid: placed.auction.current_bid,
      bid_count: placed.auction.bid_count,
      expires_at: placed.auction.expires_at?.toISOString() ?? null,
      extended: false,
      // An offer waits for the seller (D5): it leads nothing and has no maximum.
      leading: false,
      max_amount: null,
    };
  }
}

function toDto(bid: BidRecord, bidderName: string): BidDto {
  return { id: bid.id, bidder_name: bidderName, amount: bid.amount, automatic: bid.automatic, created_at: bid.created_at.toISOString() };
}
