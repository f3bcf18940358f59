import { Controller, Get, Header } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RPC, type PublicFees } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';

/** What selling costs (ADR 0026): public, so the help, about and sell pages state the fee in force. */
@ApiTags('fees')
@Controller('fees')
export class FeesController {
  constructor(private readonly rpc: GatewayRpc) {}

  // A minute in browser caches: a fee change applies to invoices created after it, so pages may lag it that long.
  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  fees(): Promise<PublicFees> {
    return this.rpc.send(RPC.admin.publicFees, {}, null);
  }
}
