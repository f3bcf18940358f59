import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers, requireAdmin, ServiceRpc, unavailable } from '@market/server-kit';
import { auditFrom, auditTo, isUuid, RPC, type Actor, type AuditEntry, type AuditLogPage, type AuditQuery } from '@market/contracts';
import { AuditLogRepository } from './audit-log.repository';
import { cursorAfter, presentEntry, readCursor } from './audit-log.presenter';

const OVERVIEW_LIMIT = 500;
/** auth.public_profiles takes at most this many ids at once. */
const PROFILES_PER_CALL = 1000;

/**
 * The audit log (ADR 0009, ADR 0032): keeps every audit.recorded (impersonation, from the gateway) and admin.acted (an
 * admin's own act, from the service that made it) once, and shows them to real admins only.
 */
@Injectable()
export class AuditLogService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AuditLog');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly log: AuditLogRepository,
    private readonly rpc: ServiceRpc,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('audit.recorded', (event, manager) => this.log.insertImpersonation(manager, event.id, event.payload));
    await this.consumers.subscribe('admin.acted', (event, manager) => this.log.insertAct(manager, event.id, event.payload));
  }

  /** The latest impersonation entries, for the Overview. */
  async latest(actor: Actor): Promise<{ entries: AuditEntry[] }> {
    requireAdmin(actor);
    return { entries: await this.log.latestImpersonation(OVERVIEW_LIMIT) };
  }

  /** One page of the whole log, newest first, filtered; each entry with its admins' and user target's usernames. */
  async search(actor: Actor, query: AuditQuery): Promise<AuditLogPage> {
    requireAdmin(actor);
    const after = query.cursor ? readCursor(query.cursor) : null;
    const adminIds = query.actor ? await this.adminsMatching(query.actor) : null;
    if (adminIds?.length === 0) return { entries: [], next_cursor: null };
    const rows = await this.log.page({
      adminIds,
      action: query.action ?? null,
      targetId: query.target ?? null,
      from: query.from ? auditFrom(query.from) : null,
      to: query.to ? auditTo(query.to) : null,
      after,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const users = page.flatMap((row) => [row.admin_id, row.impersonator_id, row.target_type === 'user' ? row.target_id : null]);
    const usernames = await this.usernames(users.filter((id): id is string => id !== null && isUuid(id)));
    return {
      entries: page.map((row) => presentEntry(row, usernames)),
      next_cursor: rows.length > query.limit ? cursorAfter(page[page.length - 1]) : null,
    };
  }

  /** The admins an actor filter names: an id as it is, else everyone who acted whose username contains the text. */
  private async adminsMatching(actor: string): Promise<string[]> {
    if (isUuid(actor)) return [actor.toLowerCase()];
    const ids = await this.log.actorIds();
    const wanted = actor.toLowerCase();
    const matching: string[] = [];
    for (let start = 0; start < ids.length; start += PROFILES_PER_CALL) {
      let profiles;
      try {
        ({ profiles } = await this.rpc.call(RPC.auth.publicProfiles, { user_ids: ids.slice(start, start + PROFILES_PER_CALL) }, null));
      } catch (error) {
        this.logger.warn(`Could not look admins up by username: ${(error as Error).message}`);
        throw unavailable('Usernames cannot be looked up right now; filter by the admin id instead, or try again');
      }
      for (const profile of profiles) if (profile.username.toLowerCase().includes(wanted)) matching.push(profile.id);
    }
    return matching;
  }

  /** Current usernames of some users; an empty map when the auth service does not answer (the ids still show). */
  private async usernames(ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    try {
      const { profiles } = await this.rpc.call(RPC.auth.publicProfiles, { user_ids: unique }, null);
      return new Map(profiles.map((profile) => [profile.id, profile.username]));
    } catch (error) {
      this.logger.warn(`Could not read usernames for the audit log: ${(error as Error).message}`);
      return new Map();
    }
  }
}
