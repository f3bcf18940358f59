import { Body, Controller, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  API,
  RPC,
  type Actor,
  type ForgotPasswordRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
  type UndoEmailChangeRequest,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { RateLimit } from '../security/rate-limit';
import { AuditTrail } from '../security/audit-trail';
import { CurrentActor } from './jwt-auth.guard';

/** /api/auth: register, log in, the current user, email verification, password reset and undoing an email change. */
@Controller()
export class AuthController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly audit: AuditTrail,
  ) {}

  @Route(API.auth.register)
  @RateLimit('register')
  register(@Body() body: RegisterRequest) {
    return this.rpc.call(RPC.auth.register, body, null);
  }

  @Route(API.auth.login)
  @RateLimit('login')
  login(@Body() body: LoginRequest, @Req() request: Request) {
    // Where the login comes from is kept on its session, so its owner can recognise it later (ADR 0030).
    const client = { address: request.ip?.slice(0, 100) ?? null, user_agent: request.headers['user-agent']?.slice(0, 500) ?? null };
    return this.rpc.call(RPC.auth.login, { ...body, client }, null);
  }

  /** Ends this token's session at once, on every gateway and service. */
  @Route(API.account.logout)
  async logout(@CurrentActor() actor: Actor, @Req() request: Request) {
    const ended = await this.rpc.call(RPC.auth.logout, {}, actor);
    // An impersonation ended by logging out is as much a stop as the banner's button (D14, ADR 0009).
    if (actor.impersonator_id) await this.audit.record(actor.impersonator_id, actor.user_id, 'impersonation.stop', request.method, request.path);
    return ended;
  }

  @Route(API.auth.me)
  me(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.auth.me, {}, actor);
  }

  @Route(API.auth.verifyEmail)
  @RateLimit('verifyEmail')
  verifyEmail(@Query() query: { token: string }) {
    return this.rpc.call(RPC.auth.verifyEmail, query, null);
  }

  @Route(API.auth.resendVerification)
  resendVerification(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.auth.resendVerification, {}, actor);
  }

  @Route(API.auth.forgotPassword)
  @RateLimit('forgotPassword')
  forgotPassword(@Body() body: ForgotPasswordRequest) {
    return this.rpc.call(RPC.auth.forgotPassword, body, null);
  }

  @Route(API.auth.resetPassword)
  @RateLimit('resetPassword')
  resetPassword(@Body() body: ResetPasswordRequest) {
    return this.rpc.call(RPC.auth.resetPassword, body, null);
  }

  /** The link mailed to the old address after an email change (ADR 0034). */
  @Route(API.auth.undoEmailChange)
  @RateLimit('undoEmailChange')
  undoEmailChange(@Body() body: UndoEmailChangeRequest) {
    return this.rpc.call(RPC.auth.undoEmailChange, body, null);
  }
}
