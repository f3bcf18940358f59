import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type SandboxOnboardingRequest } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** Sellers' payout accounts and payouts (D22): billing-service decides, this only routes. */
@Controller()
export class PayoutsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.payouts.account)
  account(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.payoutAccount, {}, actor);
  }

  @Route(API.payouts.onboarding)
  onboarding(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.payoutOnboarding, {}, actor);
  }

  @Route(API.payouts.payouts)
  payouts(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.sellerPayouts, {}, actor);
  }

  /** The sandbox's onboarding page (its stand-in for Stripe's hosted onboarding); 404 under Stripe. */
  @Route(API.payouts.sandboxOnboardingLink)
  sandboxLink(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.sandboxOnboardingLink, { id }, actor);
  }

  @Route(API.payouts.sandboxCompleteOnboarding)
  sandboxComplete(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: SandboxOnboardingRequest | undefined) {
    return this.rpc.call(RPC.billing.sandboxCompleteOnboarding, { id, request: body ?? {} }, actor);
  }
}
