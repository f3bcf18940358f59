import { Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** /api/invoices/{id}/transfer-proof: the buyer verifying the transfer with their own token (ADR 0040). */
@Controller()
export class TransferProofController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.transferProof.get)
  proof(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.transferProof, { id }, actor);
  }

  @Route(API.transferProof.check)
  check(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.checkTransferProof, { id }, actor);
  }
}
