import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { SaleCancellationService } from './sale-cancellation.service';

/** NATS handler of an admin's cancel of an unpaid sale (ADR 0043); the service checks the actor. */
@Controller()
export class SaleCancellationController {
  constructor(private readonly cancellations: SaleCancellationService) {}

  @RpcHandler(RPC.billing.cancelSale)
  cancel(input: RpcParsed<typeof RPC.billing.cancelSale>, call: RpcCall) {
    return this.cancellations.cancel(call.actor, input);
  }
}
