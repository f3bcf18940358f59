import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireActor, type RpcCall } from '@market/server-kit';
import { UsersAdminService } from './users-admin.service';

/** NATS handlers of the admin's account operations. */
@Controller()
export class UsersAdminController {
  constructor(private readonly admin: UsersAdminService) {}

  @RpcHandler(RPC.auth.listUsers)
  list(input: RpcParsed<typeof RPC.auth.listUsers>, call: RpcCall) {
    return this.admin.list(requireActor(call.actor), input.limit);
  }

  @RpcHandler(RPC.auth.stats)
  stats(_input: unknown, call: RpcCall) {
    return this.admin.stats(requireActor(call.actor));
  }

  @RpcHandler(RPC.auth.updateUser)
  update(input: RpcParsed<typeof RPC.auth.updateUser>, call: RpcCall) {
    return this.admin.update(requireActor(call.actor), input.id, input.changes);
  }

  @RpcHandler(RPC.auth.deleteUser)
  delete(input: RpcParsed<typeof RPC.auth.deleteUser>, call: RpcCall) {
    return this.admin.delete(requireActor(call.actor), input.id);
  }

  @RpcHandler(RPC.auth.impersonate)
  impersonate(input: RpcParsed<typeof RPC.auth.impersonate>, call: RpcCall) {
    return this.admin.impersonate(requireActor(call.actor), input.id);
  }
}
