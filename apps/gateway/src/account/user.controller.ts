import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type ChangePasswordRequest, type UpdateProfileRequest } from '@market/contracts';
import { forbidden } from '@market/server-kit';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';

/** /api/user: the signed-in user's own profile, password and login sessions. */
@Controller()
export class UserController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.account.updateProfile)
  updateProfile(@CurrentActor() actor: Actor, @Body() body: UpdateProfileRequest) {
    return this.rpc.call(RPC.auth.updateProfile, body, actor);
  }

  @Route(API.account.changePassword)
  changePassword(@CurrentActor() actor: Actor, @Body() body: ChangePasswordRequest) {
    if (actor.impersonator_id) throw forbidden('Passwords cannot be changed while impersonating a user');
    return this.rpc.call(RPC.auth.changePassword, body, actor);
  }

  @Route(API.account.sessions)
  sessions(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.auth.listSessions, {}, actor);
  }

  @Route(API.account.revokeSession)
  revokeSession(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.auth.revokeSession, { id }, actor);
  }

  @Route(API.account.revokeAllSessions)
  revokeAllSessions(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.auth.revokeAllSessions, {}, actor);
  }
}
