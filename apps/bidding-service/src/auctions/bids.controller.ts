import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { BidActionSchema, PlaceBidSchema, RPC, UuidSchema, type RpcEnvelope } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { BidsService } from './bids.service';

const BidActionMessage = BidActionSchema.extend({ bid_id: UuidSchema });

/** NATS handlers of bids; the service re-checks every message and its actor. */
@Controller()
export class BidsController {
  constructor(private readonly bids: BidsService) {}

  @MessagePattern(RPC.bidding.placeBid)
  place(@Payload() message: RpcEnvelope) {
    return this.bids.place(message.meta.actor, parseInput(PlaceBidSchema, message.data));
  }

  @MessagePattern(RPC.bidding.bidAction)
  act(@Payload() message: RpcEnvelope) {
    const input = parseInput(BidActionMessage, message.data);
    return this.bids.act(message.meta.actor, input.bid_id, input.action);
  }

  @MessagePattern(RPC.bidding.userBids)
  userBids(@Payload() message: RpcEnvelope) {
    return this.bids.userBids(message.meta.actor);
  }

  @MessagePattern(RPC.bidding.buyNow)
  buyNow(@Payload() message: RpcEnvelope) {
    return this.bids.buyNow(message.meta.actor, parseInput(z.object({ listing_id: UuidSchema }), message.data).listing_id);
  }

  @MessagePattern(RPC.bidding.history)
  history(@Payload() message: RpcEnvelope) {
    return this.bids.history(parseInput(z.object({ listing_id: UuidSchema }), message.data).listing_id);
  }
}
