import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireActor, type RpcCall } from '@market/server-kit';
import { AuthService } from './auth.service';

/** NATS handlers of registration, login and sessions; each message is parsed by its subject's schema first. */
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @RpcHandler(RPC.auth.register)
  register(input: RpcParsed<typeof RPC.auth.register>) {
    return this.auth.register(input);
  }

  @RpcHandler(RPC.auth.login)
  login(input: RpcParsed<typeof RPC.auth.login>) {
    return this.auth.login(input);
  }

  @RpcHandler(RPC.auth.me)
  me(_input: unknown, call: RpcCall) {
    return this.auth.me(requireActor(call.actor));
  }

  @RpcHandler(RPC.auth.sessionState)
  sessionState(input: RpcParsed<typeof RPC.auth.sessionState>) {
    return this.auth.sessionState(input.user_id);
  }
}
