import { Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** The admin Ledger tab (D22): real admins only; billing-service keeps the ledger and reconciles it. */
@Controller()
export class LedgerController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.adminLedger.overview)
  overview(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.adminLedger, {}, actor);
  }

  @Route(API.adminLedger.invoice)
  invoice(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.adminInvoiceLedger, { id }, actor);
  }

  @Route(API.adminLedger.reconcile)
  reconcile(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.adminReconcile, {}, actor);
  }
}
