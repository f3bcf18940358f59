import { Body, Controller, Param, Query } from '@nestjs/common';
import { API, RPC, type Actor, type AdminCancelListing, type AdminListingsQuery, type AdminUpdateListing } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { ListingWrites } from './listing-writes';

/** /api/admin/listings: review, feature, set status, cancel and delete any listing. Real admins only. */
@Controller()
export class AdminListingsController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly writes: ListingWrites,
  ) {}

  @Route(API.adminListings.list)
  list(@CurrentActor() actor: Actor, @Query() query: AdminListingsQuery) {
    return this.rpc.call(RPC.listings.adminList, query, actor);
  }

  @Route(API.adminListings.update)
  async update(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AdminUpdateListing) {
    const listing = await this.rpc.call(RPC.listings.adminUpdate, { id, changes: body }, actor);
    await this.writes.settled();
    return listing;
  }

  @Route(API.adminListings.cancel)
  async cancel(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AdminCancelListing) {
    const listing = await this.rpc.call(RPC.listings.adminCancel, { id, reason: body.reason }, actor);
    await this.writes.settled();
    return listing;
  }

  @Route(API.adminListings.delete)
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const result = await this.rpc.call(RPC.listings.delete, { id }, actor);
    await this.writes.settled(result.removed_screenshots);
    return { message: result.message };
  }
}
