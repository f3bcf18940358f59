import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { PlaceBidSchema, RPC, UuidSchema, type RpcEnvelope } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { BidsService } from './bids.service';

/** NATS handlers of bids; the service re-checks every message and its actor. */
@Controller()
export class BidsController {
  constructor(private readonly bids: BidsService) {}

  @MessagePattern(RPC.bidding.placeBid)
  place(@Payload() message: RpcEnvelope) {
    return this.bids.place(message.meta.actor, parseInput(PlaceBidSchema, message.data));
  }

  @MessagePattern(RPC.bidding.history)
  history(@Payload() message: RpcEnvelope) {
    return this.bids.history(parseInput(z.object({ listing_id: UuidSchema }), message.data).listing_id);
  }
}
