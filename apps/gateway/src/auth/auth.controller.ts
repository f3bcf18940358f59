import { Body, Controller, Query } from '@nestjs/common';
import {
  API,
  RPC,
  type Actor,
  type ForgotPasswordRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { RateLimit } from '../security/rate-limit';
import { CurrentActor } from './jwt-auth.guard';

/** /api/auth: register, log in, the current user, email verification and password reset. */
@Controller()
export class AuthController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.auth.register)
  @RateLimit('register')
  register(@Body() body: RegisterRequest) {
    return this.rpc.call(RPC.auth.register, body, null);
  }

  @Route(API.auth.login)
  @RateLimit('login')
  login(@Body() body: LoginRequest) {
    return this.rpc.call(RPC.auth.login, body, null);
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
}
