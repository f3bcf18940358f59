import { Body, Controller, Patch, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ChangePasswordRequestSchema,
  RPC,
  UpdateProfileRequestSchema,
  type Actor,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  type UpdateProfileRequest,
  type UserDto,
} from '@market/contracts';
import { forbidden } from '@market/server-kit';
import { GatewayRpc } from '../rpc/rpc-client';
import { ZodBody } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

/** /api/user: the signed-in user's own profile and password. */
@ApiTags('user')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('user')
export class UserController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Patch('profile')
  @ZodBody(UpdateProfileRequestSchema)
  updateProfile(@CurrentActor() actor: Actor, @Body() body: UpdateProfileRequest): Promise<UserDto> {
    return this.rpc.send(RPC.auth.updateProfile, body, actor);
  }

  @Patch('password')
  @ZodBody(ChangePasswordRequestSchema)
  changePassword(@CurrentActor() actor: Actor, @Body() body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
    if (actor.impersonator_id) throw forbidden('Passwords cannot be changed while impersonating a user');
    return this.rpc.send(RPC.auth.changePassword, body, actor);
  }
}
