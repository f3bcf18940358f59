import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { IDENTITY_REDIS, notFound, requireActor, SERVICE_CONFIG, type ServiceConfig } from '@market/server-kit';
import type { Actor, MessageResponse, UserSessionsResponse } from '@market/contracts';
import { SessionsRepository, type SessionRow } from './sessions.repository';
import { SessionStateStore } from './session-state.store';

/** The Redis key where gateways note when a session was last used (at most once a minute each). */
export function lastSeenKey(prefix: string, sessionId: string): string {
  return `${prefix}lastseen:${sessionId}`;
}

/** A session as its owner sees it: the device, the address, when it started and was last used. */
function presentSession(row: SessionRow, lastSeen: string | null, currentId: string | undefined) {
  const seen = lastSeen && Number.isFinite(Number(lastSeen)) ? new Date(Number(lastSeen)) : row.last_seen_at;
  return {
    id: row.id,
    device: row.user_agent,
    address: row.address,
    created_at: row.created_at.toISOString(),
    last_seen_at: (seen > row.last_seen_at ? seen : row.last_seen_at).toISOString(),
    current: row.id === currentId,
  };
}

/** Sessions people control (ADR 0030): log out, list, end one, end all; each ends at once on every process. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly state: SessionStateStore,
    // The request-path connection (ADR 0044): while Redis is away a write or read fails within 250 ms, never queues.
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  /** Ends the session of the caller's token (an impersonation token ends the impersonation). */
  async logout(actor: Actor | null): Promise<MessageResponse> {
    const caller = requireActor(actor);
    if (caller.session_id) {
      const ended = await this.sessions.revoke(caller.user_id, caller.session_id);
      // Published whether or not this call ended it: a retry repairs a publish an earlier call could not make. The
      // impersonations this session started end with it.
      await this.end([...new Set([caller.session_id, ...ended])]);
    }
    return { message: 'You have been logged out.' };
  }

  async list(actor: Actor | null): Promise<UserSessionsResponse> {
    const caller = requireActor(actor);
    const rows = await this.sessions.listLive(caller.user_id);
    // While Redis is away the list still answers, with the last use PostgreSQL knows (ADR 0044).
    const seen = rows.length > 0 ? await this.redis.mget(...rows.map((row) => lastSeenKey(this.config.REDIS_KEY_PREFIX, row.id))).catch(() => []) : [];
    return { sessions: rows.map((row, i) => presentSession(row, seen[i] ?? null, caller.session_id)) };
  }

  /** Ends one of the caller's own sessions (again, if it already ended); another user's id is a 404 like an unknown one. */
  async revoke(actor: Actor | null, id: string): Promise<MessageResponse> {
    const caller = requireActor(actor);
    if (!(await this.sessions.belongsTo(id, caller.user_id))) throw notFound('Session not found');
    const ended = await this.sessions.revoke(caller.user_id, id);
    await this.end([...new Set([id, ...ended])]);
    return { message: 'That session has been logged out.' };
  }

  /** "Log out everywhere": every session of the caller, this one included. */
  async revokeAll(actor: Actor | null): Promise<MessageResponse> {
    const caller = requireActor(actor);
    await this.end(await this.sessions.revokeAll(caller.user_id, null));
    return { message: 'You have been logged out everywhere.' };
  }

  private async end(ids: string[]): Promise<void> {
    await this.state.publishSessions(ids, false);
  }
}
