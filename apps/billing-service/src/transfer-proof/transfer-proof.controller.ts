import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { TransferProofService } from './transfer-proof.service';

/** NATS handlers of the buyer's transfer proof (ADR 0040). */
@Controller()
export class TransferProofController {
  constructor(private readonly proofs: TransferProofService) {}

  @RpcHandler(RPC.billing.transferProof)
  proof(input: RpcParsed<typeof RPC.billing.transferProof>, call: RpcCall) {
    return this.proofs.proof(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.checkTransferProof)
  check(input: RpcParsed<typeof RPC.billing.checkTransferProof>, call: RpcCall) {
    return this.proofs.check(call.actor, input.id);
  }
}
