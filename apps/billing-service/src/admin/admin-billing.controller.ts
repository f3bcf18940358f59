import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AdminTransactionsQuerySchema, RPC, type RpcEnvelope } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { AdminBillingService } from './admin-billing.service';

/** NATS handlers of the admin Transactions and Analytics tabs; the service checks the actor is a real admin. */
@Controller()
export class AdminBillingController {
  constructor(private readonly service: AdminBillingService) {}

  @MessagePattern(RPC.billing.adminTransactions)
  transactions(@Payload() message: RpcEnvelope) {
    return this.service.transactions(message.meta.actor, parseInput(AdminTransactionsQuerySchema, message.data ?? {}));
  }

  @MessagePattern(RPC.billing.adminInvoiceAnalytics)
  analytics(@Payload() message: RpcEnvelope) {
    return this.service.analytics(message.meta.actor);
  }
}
