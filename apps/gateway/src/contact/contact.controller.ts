import { Body, Controller, Req } from '@nestjs/common';
import type { Request } from 'express';
import { API, RPC, type Actor, type ContactForm } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { OptionalActor } from '../auth/jwt-auth.guard';
import { RateLimit } from '../security/rate-limit';

/** The public contact form (SPEC §5): stored and mailed to support; a signed-in sender is named. */
@Controller()
export class ContactController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.contact.submit)
  @RateLimit('contact')
  submit(@OptionalActor() actor: Actor | null, @Body() body: ContactForm, @Req() request: Request) {
    return this.rpc.call(RPC.notifications.submitContact, { form: body, client_address: request.ip ?? null }, actor);
  }
}
