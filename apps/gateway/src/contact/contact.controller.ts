import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ContactSchema, RPC, type Actor, type ContactForm, type ContactResponse } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { ZodBody } from '../http/zod-body';
import { OptionalActor, OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { RateLimit } from '../security/rate-limit';

/** The public contact form (SPEC §5): stored and mailed to support; a signed-in sender is named. */
@ApiTags('contact')
@Controller('contact')
export class ContactController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Post()
  @HttpCode(200)
  @RateLimit('contact')
  @UseGuards(OptionalJwtAuthGuard)
  @ZodBody(ContactSchema)
  submit(@OptionalActor() actor: Actor | null, @Body() body: ContactForm, @Req() request: Request): Promise<ContactResponse> {
    return this.rpc.send(RPC.notifications.submitContact, { form: body, client_address: request.ip ?? null }, actor);
  }
}
