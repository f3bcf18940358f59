import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuditEntry, EventPayloads } from '@market/contracts';

/** The admin schema's audit log. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, id: string, entry: EventPayloads['audit.recorded']): Promise<void> {
    await manager.query(
      `INSERT INTO audit_log (id, admin_id, target_id, action, method, route, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO NOTHING`,
      [id, entry.admin_id, entry.target_id, entry.action, entry.method, entry.route, entry.at],
    );
  }

  latest(limit: number): Promise<AuditEntry[]> {
    return this.dataSource.query(
      `SELECT id, admin_id, target_id, action, method, route, at FROM audit_log ORDER BY at DESC, id LIMIT $1`,
      [limit],
    );
  }
}
