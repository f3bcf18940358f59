import { Body, Controller, Delete, Get, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  RPC,
  UuidSchema,
  WatchlistAddSchema,
  type Actor,
  type ListingsResponse,
  type WatchlistAdd,
  type WatchlistResponse,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

/** /api/user/listings and /api/user/watchlist: the signed-in user's own listings and watched ones. */
@ApiTags('user')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('user')
export class UserListingsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Get('listings')
  listings(@CurrentActor() actor: Actor): Promise<ListingsResponse> {
    return this.rpc.send(RPC.listings.mine, {}, actor);
  }

  @Get('watchlist')
  watchlist(@CurrentActor() actor: Actor): Promise<WatchlistResponse> {
    return this.rpc.send(RPC.listings.watchlistList, {}, actor);
  }

  @Post('watchlist')
  @ZodBody(WatchlistAddSchema)
  watch(@CurrentActor() actor: Actor, @Body() body: WatchlistAdd): Promise<{ message: string }> {
    return this.rpc.send(RPC.listings.watchlistAdd, body, actor);
  }

  @Delete('watchlist/:listingId')
  unwatch(@CurrentActor() actor: Actor, @Param('listingId') listingId: string): Promise<{ message: string }> {
    return this.rpc.send(RPC.listings.watchlistRemove, { listing_id: parse(UuidSchema, listingId, 'path') }, actor);
  }
}
