import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { AdminBillingService } from './admin-billing.service';

/** NATS handlers of the admin Transactions and Analytics tabs; the service checks the actor is a real admin. */
@Controller()
export class AdminBillingController {
  constructor(private readonly service: AdminBillingService) {}

  @RpcHandler(RPC.billing.adminTransactions)
  transactions(input: RpcParsed<typeof RPC.billing.adminTransactions>, call: RpcCall) {
    return this.service.transactions(call.actor, input);
  }

  @RpcHandler(RPC.billing.adminInvoiceAnalytics)
  analytics(_input: unknown, call: RpcCall) {
    return this.service.analytics(call.actor);
  }
}
