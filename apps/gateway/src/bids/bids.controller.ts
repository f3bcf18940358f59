import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type BidAction, type PlaceBid } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { IdempotencyKey, type IdempotencyRequest } from '../http/idempotency-key.decorator';

/** Bids and offers (SPEC §7): place, the seller's accept/reject, My Bids, one's standing on a listing, and a listing's bid history. */
@Controller()
export class BidsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.bids.place)
  place(@CurrentActor() actor: Actor, @Body() body: PlaceBid, @IdempotencyKey() idempotency: IdempotencyRequest | null) {
    return this.rpc.call(RPC.bidding.placeBid, body, actor, { idempotency });
  }

  /** The seller accepts or rejects a pending bid or offer; accepting sells the listing. */
  @Route(API.bids.act)
  act(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: BidAction) {
    return this.rpc.call(RPC.bidding.bidAction, { bid_id: id, ...body }, actor);
  }

  /** The actor's bids as buyer and the bids on their listings as seller (the My Bids tab). */
  @Route(API.bids.userBids)
  userBids(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.bidding.userBids, {}, actor);
  }

  /** The actor's own standing on one listing (ADR 0060): the bid form asks it instead of the whole My Bids list. */
  @Route(API.bids.myStanding)
  myStanding(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.bidding.myStanding, { listing_id: id }, actor);
  }

  /** The latest 10 bids, newest first; public like the listing page. */
  @Route(API.bids.history)
  history(@Param('id') id: string) {
    return this.rpc.call(RPC.bidding.history, { listing_id: id }, null);
  }
}
