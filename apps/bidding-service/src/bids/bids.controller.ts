import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { BidsService } from './bids.service';
import { countBid } from './bid.metrics';

/** NATS handlers of bids; the service re-checks every message and its actor. */
@Controller()
export class BidsController {
  constructor(private readonly bids: BidsService) {}

  @RpcHandler(RPC.bidding.placeBid)
  place(input: RpcParsed<typeof RPC.bidding.placeBid>, call: RpcCall) {
    return countBid(this.bids.place(call.actor, input));
  }

  @RpcHandler(RPC.bidding.bidAction)
  act(input: RpcParsed<typeof RPC.bidding.bidAction>, call: RpcCall) {
    return this.bids.act(call.actor, input.bid_id, input.action);
  }

  @RpcHandler(RPC.bidding.userBids)
  userBids(_input: unknown, call: RpcCall) {
    return this.bids.userBids(call.actor);
  }

  @RpcHandler(RPC.bidding.myStanding)
  myStanding(input: RpcParsed<typeof RPC.bidding.myStanding>, call: RpcCall) {
    return this.bids.myStanding(call.actor, input.listing_id);
  }

  @RpcHandler(RPC.bidding.buyNow)
  buyNow(input: RpcParsed<typeof RPC.bidding.buyNow>, call: RpcCall) {
    return this.bids.buyNow(call.actor, input.listing_id);
  }

  @RpcHandler(RPC.bidding.history)
  history(input: RpcParsed<typeof RPC.bidding.history>) {
    return this.bids.history(input.listing_id);
  }
}
