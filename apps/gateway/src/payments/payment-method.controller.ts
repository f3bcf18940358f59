import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type SandboxCard } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** The member's saved card (ADR 0041): billing-service decides, this only routes. */
@Controller()
export class PaymentMethodController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.paymentMethod.status)
  status(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.paymentMethodStatus, {}, actor);
  }

  @Route(API.paymentMethod.setup)
  setup(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.setupPaymentMethod, {}, actor);
  }

  @Route(API.paymentMethod.sync)
  sync(@CurrentActor() actor: Actor, @Body() body: { setup_intent_id: string }) {
    return this.rpc.call(RPC.billing.syncPaymentMethod, body, actor);
  }

  /** The sandbox card form's confirmation (its stand-in for Stripe.js); 404 when the provider is not the sandbox. */
  @Route(API.paymentMethod.sandboxConfirm)
  sandboxConfirm(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() card: SandboxCard) {
    return this.rpc.call(RPC.billing.sandboxConfirmSetup, { id, card }, actor);
  }
}
