import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AdminUsersQuerySchema, RPC, type RpcEnvelope } from '@market/contracts';
import { parseInput, requireActor } from '@market/server-kit';
import { AdminOverviewService } from './admin-overview.service';
import { AuditLogService } from '../audit/audit-log.service';

/** NATS handlers of the admin views. */
@Controller()
export class AdminController {
  constructor(
    private readonly overview: AdminOverviewService,
    private readonly audit: AuditLogService,
  ) {}

  @MessagePattern(RPC.admin.stats)
  stats(@Payload() message: RpcEnvelope) {
    return this.overview.stats(requireActor(message.meta.actor));
  }

  @MessagePattern(RPC.admin.users)
  users(@Payload() message: RpcEnvelope) {
    return this.overview.users(requireActor(message.meta.actor), parseInput(AdminUsersQuerySchema, message.data).limit);
  }

  @MessagePattern(RPC.admin.auditLog)
  auditLog(@Payload() message: RpcEnvelope) {
    return this.audit.latest(requireActor(message.meta.actor));
  }
}
