import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuditValues } from '@market/domain';
import { IMPERSONATION_ACTIONS, type AuditEntry, type EventPayloads } from '@market/contracts';

/** An audit_log row as read for the audit page. */
export interface AuditLogRow {
  id: string;
  at: Date;
  /** `at` exactly as stored (microseconds), for the next page's cursor. */
  at_key: string;
  action: string;
  admin_id: string;
  impersonator_id: string | null;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  before: AuditValues | null;
  after: AuditValues | null;
  changed_secrets: string[];
  method: string | null;
  route: string | null;
}

/** What a page of the audit log is filtered by; null leaves a filter out. */
export interface AuditFilter {
  /** Entries by any of these admins, acting or behind an impersonation. */
  adminIds: string[] | null;
  action: string | null;
  targetId: string | null;
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
  /** Entries older than this one (the previous page's last). */
  after: { at: string; id: string } | null;
  limit: number;
}

/**
 * The admin schema's audit log (ADR 0009, ADR 0032): append-only, so this repository only inserts and reads (the
 * table's triggers refuse UPDATE, DELETE and TRUNCATE besides). Inserts are idempotent by event id.
 */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** An impersonation start, stop or request from the gateway. */
  async insertImpersonation(manager: EntityManager, id: string, entry: EventPayloads['audit.recorded']): Promise<void> {
    await manager.query(
      `INSERT INTO audit_log (id, admin_id, target_type, target_id, action, method, route, at) VALUES ($1, $2, 'user', $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO NOTHING`,
      [id, entry.admin_id, entry.target_id, entry.action, entry.method, entry.route, entry.at],
    );
    await this.rememberActors(manager, [entry.admin_id]);
  }

  /** An admin's own act, from the service that made it. */
  async insertAct(manager: EntityManager, id: string, act: EventPayloads['admin.acted']): Promise<void> {
    await manager.query(
      `INSERT INTO audit_log (id, admin_id, impersonator_id, action, target_type, target_id, target_label, before, after, changed_secrets, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO NOTHING`,
      [
        id,
        act.admin_id,
        act.impersonator_id,
        act.action,
        act.target_type,
        act.target_id,
        act.target_label,
        act.before === null ? null : JSON.stringify(act.before),
        act.after === null ? null : JSON.stringify(act.after),
        act.changed_secrets,
        act.at,
      ],
    );
    await this.rememberActors(manager, [act.admin_id, ...(act.impersonator_id ? [act.impersonator_id] : [])]);
  }

  private async rememberActors(manager: EntityManager, ids: string[]): Promise<void> {
    await manager.query('INSERT INTO audit_actors (user_id) SELECT unnest($1::uuid[]) ON CONFLICT DO NOTHING', [ids]);
  }

  /** Everyone who has an entry, acting or behind an impersonation. */
  async actorIds(): Promise<string[]> {
    const rows: Array<{ user_id: string }> = await this.dataSource.query('SELECT user_id FROM audit_actors');
    return rows.map((row) => row.user_id);
  }

  /** The latest impersonation entries, newest first (the Overview). */
  latestImpersonation(limit: number): Promise<AuditEntry[]> {
    return this.dataSource.query(
      `SELECT id, admin_id, target_id, action, method, route, at FROM audit_log WHERE action = ANY($1) ORDER BY at DESC, id DESC LIMIT $2`,
      [IMPERSONATION_ACTIONS, limit],
    );
  }

  /** One page of entries matching the filter, newest first. */
  page(filter: AuditFilter): Promise<AuditLogRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.adminIds) {
      const ids = param(filter.adminIds);
      where.push(`(admin_id = ANY(${ids}::uuid[]) OR impersonator_id = ANY(${ids}::uuid[]))`);
    }
    if (filter.action) where.push(`action = ${param(filter.action)}`);
    if (filter.targetId) where.push(`target_id = ${param(filter.targetId)}::uuid`);
    if (filter.from) where.push(`at >= ${param(filter.from)}`);
    if (filter.to) where.push(`at < ${param(filter.to)}`);
    if (filter.after) where.push(`(at, id) < (${param(filter.after.at)}::timestamptz, ${param(filter.after.id)}::uuid)`);
    return this.dataSource.query(
      `SELECT id, at, at::text AS at_key, action, admin_id, impersonator_id, target_type, target_id, target_label, before, after,
              changed_secrets, method, route
       FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY at DESC, id DESC LIMIT ${param(filter.limit)}`,
      params,
    );
  }
}
