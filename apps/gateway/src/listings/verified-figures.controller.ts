import { Body, Controller, Inject, Param } from '@nestjs/common';
import { API, RPC, type Actor, type ConnectStripe, type FinishGa4, type StartGa4, type VerificationSource } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { GATEWAY_CONFIG, publicOrigin, type GatewayConfig } from '../gateway.config';
import { PageRenderer } from '../site/page-renderer';
import { BrowseCache } from './browse-cache';
import { RateLimit } from '../security/rate-limit';

/**
 * A seller connecting the site's revenue and traffic sources (D24, ADR 0084); listings-service decides who may. Google
 * sends the seller back to the web's /verify/ga4 page on PUBLIC_URL, which forwards the code and state here.
 */
@Controller()
export class VerifiedFiguresController {
  private readonly redirectUri: string;

  constructor(
    private readonly rpc: GatewayRpc,
    private readonly browseCache: BrowseCache,
    private readonly pages: PageRenderer,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.redirectUri = `${publicOrigin(config)}/verify/ga4`;
  }

  // Badges show on cards and the listing's page: this gateway's kept copies go at once (others' within their lifetime).
  private changed<T extends { listing_id: string }>(answer: T): T {
    this.browseCache.clear();
    this.pages.dropListingPages(answer.listing_id);
    return answer;
  }

  @Route(API.verifiedFigures.get)
  connections(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.listings.verifications, { id }, actor);
  }

  @Route(API.verifiedFigures.connectStripe)
  @RateLimit('verifiedFigures')
  async connectStripe(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() connect: ConnectStripe) {
    return this.changed(await this.rpc.call(RPC.listings.connectStripe, { id, connect }, actor));
  }

  @Route(API.verifiedFigures.startGa4)
  @RateLimit('verifiedFigures')
  startGa4(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() start: StartGa4) {
    return this.rpc.call(RPC.listings.startGa4, { id, start, redirect_uri: this.redirectUri }, actor);
  }

  @Route(API.verifiedFigures.finishGa4)
  @RateLimit('verifiedFigures')
  async finishGa4(@CurrentActor() actor: Actor, @Body() finish: FinishGa4) {
    return this.changed(await this.rpc.call(RPC.listings.finishGa4, { finish, redirect_uri: this.redirectUri }, actor));
  }

  @Route(API.verifiedFigures.disconnect)
  async disconnect(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('source') source: VerificationSource) {
    return this.changed(await this.rpc.call(RPC.listings.disconnect, { id, source }, actor));
  }
}
