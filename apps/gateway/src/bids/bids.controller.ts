import { Body, Controller, Get, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  PlaceBidSchema,
  RPC,
  UuidSchema,
  type Actor,
  type BidHistoryResponse,
  type PlaceBid,
  type PlaceBidResponse,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

/** POST /api/bids (SPEC §7) and a listing's bid history. */
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

  /** The latest 10 bids, newest first; public like the listing page. */
  @Get('listings/:id/bids')
  history(@Param('id') id: string): Promise<BidHistoryResponse> {
    return this.rpc.send(RPC.bidding.history, { listing_id: parse(UuidSchema, id, 'path') }, null);
  }
}
