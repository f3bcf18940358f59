import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { TransferService } from './transfer.service';

/** NATS handlers of the transfer checklist and disputes (ADR 0039); the service checks every actor again. */
@Controller()
export class TransferController {
  constructor(private readonly transfer: TransferService) {}

  @RpcHandler(RPC.billing.markTransferStarted)
  started(input: RpcParsed<typeof RPC.billing.markTransferStarted>, call: RpcCall) {
    return this.transfer.markTransferStarted(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.confirmReceived)
  received(input: RpcParsed<typeof RPC.billing.confirmReceived>, call: RpcCall) {
    return this.transfer.confirmReceived(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.openDispute)
  dispute(input: RpcParsed<typeof RPC.billing.openDispute>, call: RpcCall) {
    return this.transfer.openDispute(call.actor, input.id, input.request);
  }

  @RpcHandler(RPC.billing.adminResolveDispute)
  resolve(input: RpcParsed<typeof RPC.billing.adminResolveDispute>, call: RpcCall) {
    return this.transfer.resolveDispute(call.actor, input.id, input.request);
  }
}
