import { Controller, Res } from '@nestjs/common';
import type { Response } from 'express';
import { API, RPC } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';

/** What selling costs (ADR 0026): public, so the help, about and sell pages state the fee in force. */
@Controller()
export class FeesController {
  constructor(private readonly rpc: GatewayRpc) {}

  // A minute in browser caches: a fee change applies to invoices created after it, so pages may lag it that long.
  // Set once the answer is known, so an error is never cached.
  @Route(API.fees.get)
  async fees(@Res({ passthrough: true }) response: Response) {
    const fees = await this.rpc.call(RPC.admin.publicFees, {}, null);
    response.setHeader('Cache-Control', 'public, max-age=60');
    return fees;
  }
}
