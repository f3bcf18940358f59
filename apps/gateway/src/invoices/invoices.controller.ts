import { Body, Controller, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { API, RPC, type Actor, type OpenDisputeRequest } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { IdempotencyKey, type IdempotencyRequest } from '../http/idempotency-key.decorator';

// Invoice numbers make the name (INV-YYYY-NNNNNN.pdf); anything else never reaches a header.
const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.pdf$/;

/** Invoices (SPEC §2 Invoices tab, §7) and buy-now (D4): the billing service decides, this only routes. */
@Controller()
export class InvoicesController {
  constructor(private readonly rpc: GatewayRpc) {}

  /** The actor's invoices as buyer and as seller, newest first. */
  @Route(API.invoices.list)
  list(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.listInvoices, {}, actor);
  }

  @Route(API.invoices.get)
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.getInvoice, { id }, actor);
  }

  /** The invoice as a PDF download named after its number; private, never cached. */
  @Route(API.invoices.pdf)
  async pdf(@CurrentActor() actor: Actor, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const file = await this.rpc.call(RPC.billing.invoicePdf, { id }, actor);
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
  @Route(API.invoices.markPaid)
  markPaid(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.markPaid, { id }, actor);
  }

  /** The seller marks the site's transfer started (ADR 0039). */
  @Route(API.invoices.transferStarted)
  transferStarted(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.markTransferStarted, { id }, actor);
  }

  /** The buyer confirms they have received the site. */
  @Route(API.invoices.transferReceived)
  transferReceived(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.confirmReceived, { id }, actor);
  }

  /** The buyer disputes the transfer while the funds are held. */
  @Route(API.invoices.openDispute)
  openDispute(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: OpenDisputeRequest) {
    return this.rpc.call(RPC.billing.openDispute, { id, request: body }, actor);
  }

  /** Buys a listing at its buy-now price below $5,000 (D4); the answer says how to pay (SPEC §4 buy-now outcomes). */
  @Route(API.invoices.buyNow)
  buyNow(@CurrentActor() actor: Actor, @Param('id') id: string, @IdempotencyKey() idempotency: IdempotencyRequest | null) {
    return this.rpc.call(RPC.billing.buyNow, { listing_id: id }, actor, { idempotency });
  }
}
