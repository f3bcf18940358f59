import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { SavedSearchService } from './saved-search.service';

/** NATS handlers of saved searches and their unsubscribe links (ADR 0074). */
@Controller()
export class SavedSearchController {
  constructor(private readonly searches: SavedSearchService) {}

  @RpcHandler(RPC.listings.savedSearchList)
  list(_input: RpcParsed<typeof RPC.listings.savedSearchList>, call: RpcCall) {
    return this.searches.list(call.actor);
  }

  @RpcHandler(RPC.listings.savedSearchCreate)
  create(input: RpcParsed<typeof RPC.listings.savedSearchCreate>, call: RpcCall) {
    return this.searches.create(call.actor, input);
  }

  @RpcHandler(RPC.listings.savedSearchUpdate)
  update(input: RpcParsed<typeof RPC.listings.savedSearchUpdate>, call: RpcCall) {
    return this.searches.update(call.actor, input.id, input.change);
  }

  @RpcHandler(RPC.listings.savedSearchDelete)
  remove(input: RpcParsed<typeof RPC.listings.savedSearchDelete>, call: RpcCall) {
    return this.searches.remove(call.actor, input.id);
  }

  @RpcHandler(RPC.listings.unsubscribe)
  unsubscribe(input: RpcParsed<typeof RPC.listings.unsubscribe>) {
    return this.searches.unsubscribe(input.token);
  }
}
