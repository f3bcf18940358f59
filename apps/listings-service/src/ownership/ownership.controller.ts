import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { OwnershipService } from './ownership.service';

/** NATS handlers of the listing ownership proof (ADR 0040). */
@Controller()
export class OwnershipController {
  constructor(private readonly ownership: OwnershipService) {}

  @RpcHandler(RPC.listings.ownership)
  proof(input: RpcParsed<typeof RPC.listings.ownership>, call: RpcCall) {
    return this.ownership.proof(call.actor, input.listing_id);
  }

  @RpcHandler(RPC.listings.checkOwnership)
  check(input: RpcParsed<typeof RPC.listings.checkOwnership>, call: RpcCall) {
    return this.ownership.check(call.actor, input.listing_id);
  }
}
