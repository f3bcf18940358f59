import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type CancelSale } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** /api/admin/invoices/{id}/cancel: an admin cancels an unpaid sale in billing-service (ADR 0043). */
@Controller()
export class SaleCancellationController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.saleCancellation.cancel)
  cancel(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: CancelSale) {
    return this.rpc.call(RPC.billing.cancelSale, { id, reason: body.reason, strike: body.strike }, actor);
  }
}
