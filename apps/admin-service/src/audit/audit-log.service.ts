import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers, requireAdmin } from '@market/server-kit';
import type { Actor, AuditEntry } from '@market/contracts';
import { AuditLogRepository } from './audit-log.repository';

const LIST_LIMIT = 500;

/** Keeps every audit.recorded event and shows the latest to admins. */
@Injectable()
export class AuditLogService implements OnApplicationBootstrap {
  constructor(
    private readonly consumers: EventConsumers,
    private readonly log: AuditLogRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('audit.recorded', (event, manager) => this.log.insert(manager, event.id, event.payload));
  }

  async latest(actor: Actor): Promise<{ entries: AuditEntry[] }> {
    requireAdmin(actor);
    return { entries: await this.log.latest(LIST_LIMIT) };
  }
}
