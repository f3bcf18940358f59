import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type WatchlistAdd, type WatchRemindersRequest } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** /api/user/listings and /api/user/watchlist: the signed-in user's own listings and watched ones. */
@Controller()
export class UserListingsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.userListings.mine)
  listings(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.listings.mine, {}, actor);
  }

  @Route(API.watchlist.list)
  watchlist(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.listings.watchlistList, {}, actor);
  }

  @Route(API.watchlist.add)
  watch(@CurrentActor() actor: Actor, @Body() body: WatchlistAdd) {
    return this.rpc.call(RPC.listings.watchlistAdd, body, actor);
  }

  @Route(API.watchlist.reminders)
  reminders(@CurrentActor() actor: Actor, @Body() body: WatchRemindersRequest) {
    return this.rpc.call(RPC.listings.watchReminders, body, actor);
  }

  @Route(API.watchlist.remove)
  unwatch(@CurrentActor() actor: Actor, @Param('listingId') listingId: string) {
    return this.rpc.call(RPC.listings.watchlistRemove, { listing_id: listingId }, actor);
  }
}
