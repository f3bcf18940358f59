import { Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { BrowseCache } from './browse-cache';

/** /api/listings/{id}/ownership: a seller proving control of a listing's domain (ADR 0040). */
@Controller()
export class ListingOwnershipController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly browseCache: BrowseCache,
  ) {}

  @Route(API.listingOwnership.get)
  proof(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.listings.ownership, { listing_id: id }, actor);
  }

  /** A verified listing's badge shows on browse cards: this gateway's cached pages go at once (others' within seconds). */
  @Route(API.listingOwnership.check)
  async check(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const proof = await this.rpc.call(RPC.listings.checkOwnership, { listing_id: id }, actor);
    if (proof.verified) this.browseCache.clear();
    return proof;
  }
}
