import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { API, RPC, type SiteInfo } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';

/** How this deployment runs, for every page (ADR 0033): the web app shows its TEST MODE banner from this answer. */
@Controller()
export class SiteController {
  constructor(private readonly rpc: GatewayRpc) {}

  // The provider is chosen when billing starts, so a minute in browser caches is safe; an error is never cached.
  @Route(API.site.get)
  async site(@Res({ passthrough: true }) response: Response): Promise<SiteInfo> {
    const payments = await this.rpc.call(RPC.billing.paymentsMode, {}, null);
    response.setHeader('Cache-Control', 'public, max-age=60');
    return { payments };
  }
}
