import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { RPC, type PublicFees } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';

/** What selling costs (ADR 0026): public, so the help, about and sell pages state the fee in force. */
@ApiTags('fees')
@Controller('fees')
export class FeesController {
  constructor(private readonly rpc: GatewayRpc) {}

  // A minute in browser caches: a fee change applies to invoices created after it, so pages may lag it that long.
  // Set once the answer is known, so an error is never cached.
  @Get()
  async fees(@Res({ passthrough: true }) response: Response): Promise<PublicFees> {
    const fees = await this.rpc.send<PublicFees>(RPC.admin.publicFees, {}, null);
    response.setHeader('Cache-Control', 'public, max-age=60');
    return fees;
  }
}
