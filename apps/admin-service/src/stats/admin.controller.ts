import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireActor, type RpcCall } from '@market/server-kit';
import { AdminOverviewService } from './admin-overview.service';
import { AuditLogService } from '../audit/audit-log.service';

/** NATS handlers of the admin views. */
@Controller()
export class AdminController {
  constructor(
    private readonly overview: AdminOverviewService,
    private readonly audit: AuditLogService,
  ) {}

  @RpcHandler(RPC.admin.stats)
  stats(_input: unknown, call: RpcCall) {
    return this.overview.stats(requireActor(call.actor));
  }

  @RpcHandler(RPC.admin.users)
  users(input: RpcParsed<typeof RPC.admin.users>, call: RpcCall) {
    return this.overview.users(requireActor(call.actor), input.limit);
  }

  @RpcHandler(RPC.admin.auditLog)
  auditLog(_input: unknown, call: RpcCall) {
    return this.audit.latest(requireActor(call.actor));
  }

  @RpcHandler(RPC.admin.audit)
  auditPage(input: RpcParsed<typeof RPC.admin.audit>, call: RpcCall) {
    return this.audit.search(requireActor(call.actor), input);
  }
}
