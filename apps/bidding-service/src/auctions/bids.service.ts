import { Injectable } from '@nestjs/common';
import type { Actor, BidDto, BidHistoryResponse, PlaceBid, PlaceBidResponse } from '@market/contracts';
import { DEFAULT_ANTI_SNIPING_MINUTES } from '@market/domain';
import { badRequest, notFound, OutboxRelay, publicProfiles, requireActor, ServiceRpc } from '@market/server-kit';
import { AuctionsRepository, type BidRecord } from './auctions.repository';

const HISTORY_SIZE = 10;

/** Bids (D6, D9): placed one at a time per listing, announced as bid.placed; history with bidder names. */
@Injectable()
export class BidsService {
  constructor(
    private readonly auctions: AuctionsRepository,
    private readonly relay: OutboxRelay,
    private readonly rpc: ServiceRpc,
  ) {}

  /** Places a bid for the actor; a broken rule is a 400 with its reason. */
  async place(actor: Actor | null, input: PlaceBid): Promise<PlaceBidResponse> {
    const bidder = requireActor(actor);
    const placed = await this.auctions.placeBid(input.listing_id, bidder.user_id, input.amount, new Date(), DEFAULT_ANTI_SNIPING_MINUTES);
    if (!placed) throw notFound('Listing not found');
    const { decision, bid } = placed;
    if (!decision.accepted || !bid) throw badRequest(decision.accepted ? 'Error placing bid' : decision.reason);
    this.relay.kick();
    const [dto] = await this.present([bid]);
    return {
      message: 'Bid placed successfully',
      bid: dto,
      current_bid: decision.current_bid,
      bid_count: decision.bid_count,
      expires_at: decision.expires_at?.toISOString() ?? null,
      extended: decision.extended,
    };
  }

  /** The latest bids of a listing, newest first (SPEC §9: 10). */
  async history(listingId: string): Promise<BidHistoryResponse> {
    return { bids: await this.present(await this.auctions.bidsFor(listingId, HISTORY_SIZE)) };
  }

  private async present(bids: BidRecord[]): Promise<BidDto[]> {
    const names = await publicProfiles(this.rpc, bids.map((b) => b.bidder_id));
    return bids.map((b) => ({
      id: b.id,
      bidder_name: names.get(b.bidder_id)?.username ?? 'Bidder',
      amount: b.amount,
      created_at: b.created_at.toISOString(),
    }));
  }
}
