import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import {
  AdminListingsQuerySchema,
  AdminUpdateListingSchema,
  BrowseListingsQuerySchema,
  CreateListingSchema,
  ListingStatusRequestSchema,
  RPC,
  SCREENSHOT_KEY_PATTERN,
  UpdateListingSchema,
  UuidSchema,
  WatchlistAddSchema,
  type RpcEnvelope,
} from '@market/contracts';
import { MAX_SCREENSHOTS } from '@market/domain';
import { parseInput } from '@market/server-kit';
import { ListingsService } from './listings.service';
import { WatchlistService } from '../watchlist/watchlist.service';

const Id = z.object({ id: UuidSchema });
const ScreenshotKeys = z.array(z.string().regex(SCREENSHOT_KEY_PATTERN)).max(MAX_SCREENSHOTS);

/** NATS handlers of listings and the watchlist; the service re-checks every message and its actor. */
@Controller()
export class ListingsController {
  constructor(
    private readonly listings: ListingsService,
    private readonly watchlist: WatchlistService,
  ) {}

  @MessagePattern(RPC.listings.create)
  create(@Payload() message: RpcEnvelope) {
    const input = parseInput(z.object({ listing: CreateListingSchema, screenshots: ScreenshotKeys }), message.data);
    return this.listings.create(message.meta.actor, input.listing, input.screenshots);
  }

  @MessagePattern(RPC.listings.get)
  get(@Payload() message: RpcEnvelope) {
    return this.listings.get(message.meta.actor, parseInput(Id, message.data).id);
  }

  @MessagePattern(RPC.listings.browse)
  browse(@Payload() message: RpcEnvelope) {
    return this.listings.browse(parseInput(BrowseListingsQuerySchema, message.data));
  }

  @MessagePattern(RPC.listings.mine)
  mine(@Payload() message: RpcEnvelope) {
    return this.listings.mine(message.meta.actor);
  }

  @MessagePattern(RPC.listings.update)
  update(@Payload() message: RpcEnvelope) {
    const input = parseInput(Id.extend({ listing: UpdateListingSchema, screenshots: ScreenshotKeys }), message.data);
    return this.listings.update(message.meta.actor, input.id, input.listing, input.screenshots);
  }

  @MessagePattern(RPC.listings.setStatus)
  setStatus(@Payload() message: RpcEnvelope) {
    const input = parseInput(Id.extend(ListingStatusRequestSchema.shape), message.data);
    return this.listings.setStatus(message.meta.actor, input.id, input.status);
  }

  /** Sellers and admins alike: the service decides who may delete what. */
  @MessagePattern(RPC.listings.delete)
  delete(@Payload() message: RpcEnvelope) {
    return this.listings.delete(message.meta.actor, parseInput(Id, message.data).id);
  }

  @MessagePattern(RPC.listings.adminList)
  adminList(@Payload() message: RpcEnvelope) {
    return this.listings.adminList(message.meta.actor, parseInput(AdminListingsQuerySchema, message.data).limit);
  }

  @MessagePattern(RPC.listings.adminUpdate)
  adminUpdate(@Payload() message: RpcEnvelope) {
    const input = parseInput(Id.extend({ changes: AdminUpdateListingSchema }), message.data);
    return this.listings.adminUpdate(message.meta.actor, input.id, input.changes);
  }

  @MessagePattern(RPC.listings.watchlistAdd)
  watch(@Payload() message: RpcEnvelope) {
    return this.watchlist.add(message.meta.actor, parseInput(WatchlistAddSchema, message.data).listing_id);
  }

  @MessagePattern(RPC.listings.watchlistList)
  watchlistList(@Payload() message: RpcEnvelope) {
    return this.watchlist.list(message.meta.actor);
  }

  @MessagePattern(RPC.listings.watchlistRemove)
  unwatch(@Payload() message: RpcEnvelope) {
    return this.watchlist.remove(message.meta.actor, parseInput(WatchlistAddSchema, message.data).listing_id);
  }
}
