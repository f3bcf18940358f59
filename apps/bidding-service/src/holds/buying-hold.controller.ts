import { Controller } from '@nestjs/common';
import { RPC, type BuyingHold, type BuyingHoldsResponse, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireAdmin, type RpcCall } from '@market/server-kit';
import { BuyerStrikesRepository } from './buyer-strikes.repository';
import { liftBuyingHold } from './lift-buying-hold';

/** An admin lifts a member's buying hold (ADR 0043); real admins only, the service re-checks the actor. */
@Controller()
export class BuyingHoldController {
  constructor(private readonly strikes: BuyerStrikesRepository) {}

  @RpcHandler(RPC.bidding.liftBuyingHold)
  lift(input: RpcParsed<typeof RPC.bidding.liftBuyingHold>, call: RpcCall): Promise<BuyingHold> {
    return liftBuyingHold(this.strikes, call.actor, input.id);
  }

  @RpcHandler(RPC.bidding.buyingHolds)
  async holds(_input: RpcParsed<typeof RPC.bidding.buyingHolds>, call: RpcCall): Promise<BuyingHoldsResponse> {
    requireAdmin(call.actor);
    const holds = await this.strikes.holds(new Date(), 1000);
    return { holds: holds.map((hold) => ({ user_id: hold.user_id, strikes: hold.strikes, last_struck_at: new Date(hold.last_struck_at).toISOString() })) };
  }
}
