import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { VerifiedFiguresService } from './verified-figures.service';

/** NATS handlers of verified figures (D24, ADR 0084). */
@Controller()
export class VerifiedFiguresController {
  constructor(private readonly figures: VerifiedFiguresService) {}

  @RpcHandler(RPC.listings.verifications)
  connections(input: RpcParsed<typeof RPC.listings.verifications>, call: RpcCall) {
    return this.figures.connections(call.actor, input.id);
  }

  @RpcHandler(RPC.listings.connectStripe)
  connectStripe(input: RpcParsed<typeof RPC.listings.connectStripe>, call: RpcCall) {
    return this.figures.connectStripe(call.actor, input.id, input.connect);
  }

  @RpcHandler(RPC.listings.startGa4)
  startGa4(input: RpcParsed<typeof RPC.listings.startGa4>, call: RpcCall) {
    return this.figures.startGa4(call.actor, input.id, input.start.property_id, input.redirect_uri);
  }

  @RpcHandler(RPC.listings.finishGa4)
  finishGa4(input: RpcParsed<typeof RPC.listings.finishGa4>, call: RpcCall) {
    return this.figures.finishGa4(call.actor, input.finish.code, input.finish.state, input.redirect_uri);
  }

  @RpcHandler(RPC.listings.disconnect)
  disconnect(input: RpcParsed<typeof RPC.listings.disconnect>, call: RpcCall) {
    return this.figures.disconnect(call.actor, input.id, input.source);
  }
}
