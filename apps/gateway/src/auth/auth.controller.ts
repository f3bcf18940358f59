import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiQuery, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import {
  ForgotPasswordRequestSchema,
  LoginRequestSchema,
  RegisterRequestSchema,
  ResetPasswordRequestSchema,
  RPC,
  VerifyEmailQuerySchema,
  type Actor,
  type ForgotPasswordRequest,
  type LoginRequest,
  type LoginResponse,
  type MessageResponse,
  type RegisterRequest,
  type RegisterResponse,
  type ResetPasswordRequest,
  type UserDto,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest, ZodBody } from '../http/zod-body';
import { RateLimit } from '../security/rate-limit';
import { CurrentActor, JwtAuthGuard } from './jwt-auth.guard';

/** /api/auth: register, log in, the current user, email verification and password reset. */
@ApiTags('auth')
@ApiTooManyRequestsResponse({ description: 'Rate limited: {"detail"} and Retry-After' })
@Controller('auth')
export class AuthController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Post('register')
  @RateLimit('register')
  @ZodBody(RegisterRequestSchema)
  @ApiConflictResponse({ description: 'Username or email already registered' })
  register(@Body() body: RegisterRequest): Promise<RegisterResponse> {
    return this.rpc.send(RPC.auth.register, body, null);
  }

  @Post('login')
  @HttpCode(200)
  @RateLimit('login')
  @ZodBody(LoginRequestSchema)
  @ApiUnauthorizedResponse({ description: 'Incorrect username/email or password' })
  login(@Body() body: LoginRequest): Promise<LoginResponse> {
    return this.rpc.send(RPC.auth.login, body, null);
  }

  @Get('me')
  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
  me(@CurrentActor() actor: Actor): Promise<UserDto> {
    return this.rpc.send(RPC.auth.me, {}, actor);
  }

  @Post('verify-email')
  @HttpCode(200)
  @RateLimit('verifyEmail')
  @ApiQuery({ name: 'token', required: true })
  verifyEmail(@Query() query: Record<string, unknown>): Promise<MessageResponse> {
    return this.rpc.send(RPC.auth.verifyEmail, parseRequest(VerifyEmailQuerySchema, query, 'query'), null);
  }

  @Post('resend-verification')
  @HttpCode(200)
  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
  resendVerification(@CurrentActor() actor: Actor): Promise<MessageResponse> {
    return this.rpc.send(RPC.auth.resendVerification, {}, actor);
  }

  @Post('forgot-password')
  @HttpCode(200)
  @RateLimit('forgotPassword')
  @ZodBody(ForgotPasswordRequestSchema)
  forgotPassword(@Body() body: ForgotPasswordRequest): Promise<MessageResponse> {
    return this.rpc.send(RPC.auth.forgotPassword, body, null);
  }

  @Post('reset-password')
  @HttpCode(200)
  @RateLimit('resetPassword')
  @ZodBody(ResetPasswordRequestSchema)
  resetPassword(@Body() body: ResetPasswordRequest): Promise<MessageResponse> {
    return this.rpc.send(RPC.auth.resetPassword, body, null);
  }
}
