import { Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** /api/admin/users/{id}/lift-buying-hold: an admin lifts a member's buying hold in bidding-service (ADR 0043). */
@Controller()
export class AdminBuyingController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.adminBuying.holds)
  holds(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.bidding.buyingHolds, {}, actor);
  }

  @Route(API.adminBuying.liftHold)
  liftHold(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.bidding.liftBuyingHold, { id }, actor);
  }
}
