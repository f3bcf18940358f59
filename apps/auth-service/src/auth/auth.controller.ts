import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { LoginRequestSchema, RegisterRequestSchema, RPC, type RpcEnvelope } from '@market/contracts';
import { parseInput, requireActor } from '@market/server-kit';
import { AuthService } from './auth.service';

/** NATS handlers of registration, login and sessions; each validates its message and calls one service method. */
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(RPC.auth.register)
  register(@Payload() message: RpcEnvelope) {
    return this.auth.register(parseInput(RegisterRequestSchema, message.data));
  }

  @MessagePattern(RPC.auth.login)
  login(@Payload() message: RpcEnvelope) {
    return this.auth.login(parseInput(LoginRequestSchema, message.data));
  }

  @MessagePattern(RPC.auth.me)
  me(@Payload() message: RpcEnvelope) {
    return this.auth.me(requireActor(message.meta.actor));
  }

  @MessagePattern(RPC.auth.sessionState)
  sessionState(@Payload() message: RpcEnvelope) {
    return this.auth.sessionState(parseInput(z.object({ user_id: z.uuid() }), message.data).user_id);
  }
}
