import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { AdminUpdateUserRequestSchema, AdminUsersQuerySchema, RPC, UuidSchema, type RpcEnvelope } from '@market/contracts';
import { parseInput, requireActor } from '@market/server-kit';
import { UsersAdminService } from './users-admin.service';

const UserIdSchema = z.object({ id: UuidSchema });

/** NATS handlers of the admin's account operations. */
@Controller()
export class UsersAdminController {
  constructor(private readonly admin: UsersAdminService) {}

  @MessagePattern(RPC.auth.listUsers)
  list(@Payload() message: RpcEnvelope) {
    return this.admin.list(requireActor(message.meta.actor), parseInput(AdminUsersQuerySchema, message.data).limit);
  }

  @MessagePattern(RPC.auth.stats)
  stats(@Payload() message: RpcEnvelope) {
    return this.admin.stats(requireActor(message.meta.actor));
  }

  @MessagePattern(RPC.auth.updateUser)
  update(@Payload() message: RpcEnvelope) {
    const input = parseInput(UserIdSchema.extend({ changes: AdminUpdateUserRequestSchema }), message.data);
    return this.admin.update(requireActor(message.meta.actor), input.id, input.changes);
  }

  @MessagePattern(RPC.auth.deleteUser)
  delete(@Payload() message: RpcEnvelope) {
    return this.admin.delete(requireActor(message.meta.actor), parseInput(UserIdSchema, message.data).id);
  }

  @MessagePattern(RPC.auth.impersonate)
  impersonate(@Payload() message: RpcEnvelope) {
    return this.admin.impersonate(requireActor(message.meta.actor), parseInput(UserIdSchema, message.data).id);
  }
}
