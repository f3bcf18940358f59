import { Controller, Get, Param, Patch, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RPC, UuidSchema, type Actor, type BuyNowResponse, type InvoiceDto, type InvoicePdfFile, type InvoicesResponse, type MarkPaidResponse } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

// Invoice numbers make the name (INV-YYYY-NNNNNN.pdf); anything else never reaches a header.
const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.pdf$/;

/** Invoices (SPEC §2 Invoices tab, §7) and buy-now (D4): the billing service decides, this only routes. */
@ApiTags('invoices')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller()
export class InvoicesController {
  constructor(private readonly rpc: GatewayRpc) {}

  /** The actor's invoices as buyer and as seller, newest first. */
  @Get('invoices')
  list(@CurrentActor() actor: Actor): Promise<InvoicesResponse> {
    return this.rpc.send(RPC.billing.listInvoices, {}, actor);
  }

  @Get('invoices/:id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<InvoiceDto> {
    return this.rpc.send(RPC.billing.getInvoice, { id: parse(UuidSchema, id, 'path') }, actor);
  }

  /** The invoice as a PDF download named after its number; private, never cached. */
  @Get('invoices/:id/pdf')
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The invoice PDF (attachment named INV-YYYY-NNNNNN.pdf)' })
  async pdf(@CurrentActor() actor: Actor, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const file = await this.rpc.send<InvoicePdfFile>(RPC.billing.invoicePdf, { id: parse(UuidSchema, id, 'path') }, actor);
    const body = Buffer.from(file.content_base64, 'base64');
    const name = SAFE_FILE_NAME.test(file.file_name) ? file.file_name : 'invoice.pdf';
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.setHeader('Content-Length', String(body.length));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(body);
  }

  /** The seller records a payment made outside the platform (pending invoices only). */
  @Patch('invoices/:id/mark-paid')
  markPaid(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<MarkPaidResponse> {
    return this.rpc.send(RPC.billing.markPaid, { id: parse(UuidSchema, id, 'path') }, actor);
  }

  /** Buys a listing at its buy-now price below $5,000 (D4); the answer says how to pay (SPEC §4 buy-now outcomes). */
  @Post('listings/:id/buy-now')
  buyNow(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<BuyNowResponse> {
    return this.rpc.send(RPC.billing.buyNow, { listing_id: parse(UuidSchema, id, 'path') }, actor);
  }
}
