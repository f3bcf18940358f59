import { Controller, Headers, Req } from '@nestjs/common';
import type { Request } from 'express';
import { API, RPC } from '@market/contracts';
import { badRequest } from '@market/server-kit';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';

/**
 * POST /api/webhooks/stripe (D12, ADR 0023): no login, Stripe's signature is the authentication. The body's exact
 * bytes (kept raw for this route only, see RAW_BODY_PATHS) and the signature go to billing, which verifies them:
 * 400 {detail} on a bad or stale signature, 404 while the provider is the sandbox.
 */
@Controller()
export class StripeWebhookController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.webhooks.stripe)
  receive(@Req() req: Request, @Headers('stripe-signature') signature: string | undefined) {
    if (!signature) throw badRequest('Missing Stripe-Signature header');
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    return this.rpc.call(RPC.billing.stripeWebhook, { payload_base64: raw.toString('base64'), signature }, null);
  }
}
