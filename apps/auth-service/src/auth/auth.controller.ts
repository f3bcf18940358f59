import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireActor, type RpcCall } from '@market/server-kit';
import { AuthService } from './auth.service';
import { SessionsService } from '../sessions/sessions.service';

/** NATS handlers of registration, login and sessions; each message is parsed by its subject's schema first. */
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
  ) {}

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
    return this.auth.sessionState(input.user_id, input.session_id);
  }

  @RpcHandler(RPC.auth.logout)
  logout(_input: unknown, call: RpcCall) {
    return this.sessions.logout(call.actor);
  }

  @RpcHandler(RPC.auth.listSessions)
  listSessions(_input: unknown, call: RpcCall) {
    return this.sessions.list(call.actor);
  }

  @RpcHandler(RPC.auth.revokeSession)
  revokeSession(input: RpcParsed<typeof RPC.auth.revokeSession>, call: RpcCall) {
    return this.sessions.revoke(call.actor, input.id);
  }

  @RpcHandler(RPC.auth.revokeAllSessions)
  revokeAllSessions(_input: unknown, call: RpcCall) {
    return this.sessions.revokeAll(call.actor);
  }
}
