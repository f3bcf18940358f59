import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import {
  LoginRequestSchema,
  RegisterRequestSchema,
  RPC,
  type Actor,
  type LoginRequest,
  type LoginResponse,
  type RegisterRequest,
  type RegisterResponse,
  type UserDto,
} from '@market/contracts';
import { RpcClient } from '../rpc/rpc-client';
import { ZodBody } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from './jwt-auth.guard';

/** /api/auth: register, log in, and the current user. */
@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('register')
  @ZodBody(RegisterRequestSchema)
  @ApiConflictResponse({ description: 'Username or email already registered' })
  register(@Body() body: RegisterRequest): Promise<RegisterResponse> {
    return this.rpc.send(RPC.auth.register, body, null);
  }

  @Post('login')
  @HttpCode(200)
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
}
