import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type CreateSavedSearch, type UpdateSavedSearch } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** /api/user/saved-searches and the alert emails' one-click /api/unsubscribe/{token} (ADR 0074). */
@Controller()
export class SavedSearchesController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.savedSearches.list)
  list(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.listings.savedSearchList, {}, actor);
  }

  @Route(API.savedSearches.create)
  create(@CurrentActor() actor: Actor, @Body() body: CreateSavedSearch) {
    return this.rpc.call(RPC.listings.savedSearchCreate, body, actor);
  }

  @Route(API.savedSearches.update)
  update(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() change: UpdateSavedSearch) {
    return this.rpc.call(RPC.listings.savedSearchUpdate, { id, change }, actor);
  }

  @Route(API.savedSearches.remove)
  remove(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.listings.savedSearchDelete, { id }, actor);
  }

  // RFC 8058: a mail client POSTs the form `List-Unsubscribe=One-Click` with no cookie; the token is the permission.
  @Route(API.savedSearches.unsubscribe)
  unsubscribe(@Param('token') token: string) {
    return this.rpc.call(RPC.listings.unsubscribe, { token }, null);
  }
}
