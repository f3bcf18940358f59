import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { ListingsService } from './listings.service';
import { ListingReadsService } from './listing-reads.service';
import { WatchlistService } from '../watchlist/watchlist.service';
import { SaleTermsService } from './sale-terms.service';
import { BrowseService } from './browse.service';

/** NATS handlers of listings and the watchlist; the service re-checks every message and its actor. */
@Controller()
export class ListingsController {
  constructor(
    private readonly listings: ListingsService,
    private readonly reads: ListingReadsService,
    private readonly watchlist: WatchlistService,
    private readonly saleTerms: SaleTermsService,
    private readonly browsing: BrowseService,
  ) {}

  @RpcHandler(RPC.listings.create)
  create(input: RpcParsed<typeof RPC.listings.create>, call: RpcCall) {
    return this.listings.create(call.actor, input.listing, input.screenshots);
  }

  @RpcHandler(RPC.listings.get)
  get(input: RpcParsed<typeof RPC.listings.get>, call: RpcCall) {
    return this.reads.get(call.actor, input.id);
  }

  /** Services only: bidding-service asks for a listing it has not heard of yet (ADR 0036). */
  @RpcHandler(RPC.listings.saleTerms)
  terms(input: RpcParsed<typeof RPC.listings.saleTerms>, call: RpcCall) {
    return this.saleTerms.terms(call.actor, input.listing_id);
  }

  @RpcHandler(RPC.listings.browse)
  browse(input: RpcParsed<typeof RPC.listings.browse>) {
    return this.browsing.browse(input);
  }

  @RpcHandler(RPC.listings.mine)
  mine(_input: unknown, call: RpcCall) {
    return this.reads.mine(call.actor);
  }

  @RpcHandler(RPC.listings.update)
  update(input: RpcParsed<typeof RPC.listings.update>, call: RpcCall) {
    return this.listings.update(call.actor, input.id, input.listing, input.screenshots);
  }

  @RpcHandler(RPC.listings.setStatus)
  setStatus(input: RpcParsed<typeof RPC.listings.setStatus>, call: RpcCall) {
    return this.listings.setStatus(call.actor, input.id, input.status);
  }

  /** Sellers and admins alike: the service decides who may delete what. */
  @RpcHandler(RPC.listings.delete)
  delete(input: RpcParsed<typeof RPC.listings.delete>, call: RpcCall) {
    return this.listings.delete(call.actor, input.id);
  }

  @RpcHandler(RPC.listings.adminList)
  adminList(input: RpcParsed<typeof RPC.listings.adminList>, call: RpcCall) {
    return this.reads.adminList(call.actor, input.limit);
  }

  @RpcHandler(RPC.listings.adminUpdate)
  adminUpdate(input: RpcParsed<typeof RPC.listings.adminUpdate>, call: RpcCall) {
    return this.listings.adminUpdate(call.actor, input.id, input.changes);
  }

  @RpcHandler(RPC.listings.adminCancel)
  adminCancel(input: RpcParsed<typeof RPC.listings.adminCancel>, call: RpcCall) {
    return this.listings.adminCancel(call.actor, input.id, input.reason);
  }

  @RpcHandler(RPC.listings.watchlistAdd)
  watch(input: RpcParsed<typeof RPC.listings.watchlistAdd>, call: RpcCall) {
    return this.watchlist.add(call.actor, input.listing_id);
  }

  @RpcHandler(RPC.listings.watchlistList)
  watchlistList(_input: unknown, call: RpcCall) {
    return this.watchlist.list(call.actor);
  }

  @RpcHandler(RPC.listings.watchlistRemove)
  unwatch(input: RpcParsed<typeof RPC.listings.watchlistRemove>, call: RpcCall) {
    return this.watchlist.remove(call.actor, input.listing_id);
  }

  @RpcHandler(RPC.listings.watchReminders)
  watchReminders(input: RpcParsed<typeof RPC.listings.watchReminders>, call: RpcCall) {
    return this.watchlist.setReminders(call.actor, input.reminders);
  }
}
