import { Body, Controller, Get, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  BidActionSchema,
  PlaceBidSchema,
  RPC,
  UuidSchema,
  type Actor,
  type BidAction,
  type BidActionResponse,
  type BidHistoryResponse,
  type UserBidsResponse,
  type PlaceBid,
  type PlaceBidResponse,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

/** Bids and offers (SPEC §7): place, the seller's accept/reject, My Bids, and a listing's bid history. */
@ApiTags('bids')
@Controller()
export class BidsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Post('bids')
  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
  @ZodBody(PlaceBidSchema)
  place(@CurrentActor() actor: Actor, @Body() body: PlaceBid): Promise<PlaceBidResponse> {
    return this.rpc.send(RPC.bidding.placeBid, body, actor);
  }

  /** The seller accepts or rejects a pending bid or offer; accepting sells the listing. */
  @Post('bids/:id/action')
  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
  @ZodBody(BidActionSchema)
  act(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: BidAction): Promise<BidActionResponse> {
    return this.rpc.send(RPC.bidding.bidAction, { bid_id: parse(UuidSchema, id, 'path'), ...body }, actor);
  }

  /** The actor's bids as buyer and the bids on their listings as seller (the My Bids tab). */
  @Get('user/bids')
  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
  userBids(@CurrentActor() actor: Actor): Promise<UserBidsResponse> {
    return this.rpc.send(RPC.bidding.userBids, {}, actor);
  }

  /** The latest 10 bids, newest first; public like the listing page. */
  @Get('listings/:id/bids')
  history(@Param('id') id: string): Promise<BidHistoryResponse> {
    return this.rpc.send(RPC.bidding.history, { listing_id: parse(UuidSchema, id, 'path') }, null);
  }
}
