import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import {
  ACCOUNT_STATE_TTL_SECONDS,
  accountStateKey,
  BusIdentity,
  sealAccountState,
  sealSessionState,
  IDENTITY_CACHE,
  IDENTITY_REDIS,
  NATS_CONNECTION,
  SERVICE_CONFIG,
  sessionKey,
  withTimeout,
  type IdentityCache,
  type ServiceConfig,
} from '@market/server-kit';
import { IDENTITY_CHANGED_SUBJECT, type AccountState, type IdentityChange } from '@market/contracts';
import type { UserEntity } from '../users/user.entity';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';

const PUBLISH_TIMEOUT_MS = 1000;
// How often keys whose write failed are deleted again, and how many are remembered (one per changed account or session).
const REPAIR_EVERY_MS = 1000;
const MAX_UNSETTLED = 100_000;
// A notice naming more sessions than this drops every kept state instead (a smaller message, the same effect).
const MAX_NAMED = 1000;

/** The state every process checks a token against (ADR 0030): version, status and the account's current role. */
export function accountStateOf(user: Pick<UserEntity, 'tokenVersion' | 'status' | 'role' | 'emailVerifiedAt'>): AccountState {
  return { token_version: user.tokenVersion, status: user.status, role: user.role, email_verified: user.emailVerifiedAt !== null };
}

/**
 * Publishes account and session state to Redis after a change, so every process sees it at once (ADR 0030). What says
 * "active" lives as long as a reader's own cache (5 minutes), what says "ended" as long as a token could be presented:
 * PostgreSQL stays the authority. A failed publish is logged and never undoes or fails the change itself; its keys are
 * deleted as soon as Redis answers again (ADR 0044), so a Redis that was only slow or paused cannot keep serving the
 * old state (a live session after a logout, an active account after a suspension): readers then ask auth-service.
 * Every change is then announced on `identity.changed`, and the announcement is on the server before the change's
 * request is answered, so no process keeps the old state in memory past it (ADR 0057).
 */
@Injectable()
export class SessionStateStore implements OnModuleDestroy {
  private readonly logger = new Logger('SessionStateStore');
  private readonly unsettled = new Set<string>();
  private repairTimer: NodeJS.Timeout | null = null;
  private repairing = false;

  constructor(
    // The request-path connection (ADR 0044): while Redis is away a write or read fails within 250 ms, never queues.
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(IDENTITY_CACHE) private readonly kept: IdentityCache,
    // Every value is signed with auth-service's bus key: readers believe nothing else Redis holds (ADR 0065).
    private readonly bus: BusIdentity,
  ) {}

  /** An account's state and a session's standing as stored in Redis, signed; for callers of auth.session_state to cache. */
  sealed(userId: string, state: AccountState, session?: { id: string; live: boolean }): { account: string; session?: string } {
    return {
      account: sealAccountState(this.bus.signer, userId, state, ACCOUNT_STATE_TTL_SECONDS),
      ...(session ? { session: sealSessionState(this.bus.signer, session.id, session.live, ACCOUNT_STATE_TTL_SECONDS) } : {}),
    };
  }

  /** The account's state after a change: overwrites whatever any process cached. */
  async publish(user: Pick<UserEntity, 'id' | 'tokenVersion' | 'status' | 'role' | 'emailVerifiedAt'>): Promise<void> {
    const key = accountStateKey(this.config.REDIS_KEY_PREFIX, user.id);
    await this.write(() => this.redis.set(key, this.sealed(user.id, accountStateOf(user)).account, 'EX', ACCOUNT_STATE_TTL_SECONDS), `account ${user.id}`, [key]);
    await this.announce({ users: [user.id] });
  }

  /**
   * The account's state as read at login or impersonation: written only when no state is there, so a suspension or
   * reset that committed while the password was being checked is never overwritten with the older picture.
   */
  async publishIfAbsent(user: Pick<UserEntity, 'id' | 'tokenVersion' | 'status' | 'role' | 'emailVerifiedAt'>): Promise<void> {
    const key = accountStateKey(this.config.REDIS_KEY_PREFIX, user.id);
    await this.write(() => this.redis.set(key, this.sealed(user.id, accountStateOf(user)).account, 'EX', ACCOUNT_STATE_TTL_SECONDS, 'NX'), `account ${user.id}`, []);
  }

  /** Marks sessions live (for a reader's cache time) or ended (for as long as a token of theirs could be presented). */
  async publishSessions(ids: string[], live: boolean): Promise<void> {
    if (ids.length === 0) return;
    const writes = this.redis.multi();
    const ttl = live ? ACCOUNT_STATE_TTL_SECONDS : this.auth.JWT_TTL_SECONDS;
    const keys = ids.map((id) => sessionKey(this.config.REDIS_KEY_PREFIX, id));
    ids.forEach((id, i) => writes.set(keys[i], sealSessionState(this.bus.signer, id, live, ttl), 'EX', ttl));
    await this.write(() => writes.exec(), `${ids.length} session(s)`, keys);
    // A new session was never kept anywhere; an ended one may be.
    if (!live) await this.announce(ids.length > MAX_NAMED ? { all: true } : { sessions: ids });
  }

  onModuleDestroy() {
    if (this.repairTimer) clearInterval(this.repairTimer);
    this.repairTimer = null;
  }

  /** How many keys still wait to be deleted after a failed write (tests, logs). */
  get unsettledCount(): number {
    return this.unsettled.size;
  }

  /**
   * Drops the changed states from this process's memory and tells every other process to (ADR 0057). The flush waits
   * until the server has taken the notice, so it reaches every process before this request's answer reaches the
   * gateway that asked. When NATS cannot take it in time, processes that missed it keep the old state at most
   * IDENTITY_CACHE_TTL_MS (and keep nothing while they are disconnected).
   */
  private async announce(change: IdentityChange): Promise<void> {
    this.kept.forget(change);
    try {
      this.nc.publish(`${this.config.NATS_SUBJECT_PREFIX}${IDENTITY_CHANGED_SUBJECT}`, JSON.stringify(change));
      await withTimeout(this.nc.flush(), PUBLISH_TIMEOUT_MS, 'NATS');
    } catch (error) {
      this.logger.warn(`Could not announce an account or session change (processes keep the old state at most a few seconds): ${(error as Error).message}`);
    }
  }

  // `stale`: the keys that may now hold an older value than PostgreSQL's (none for a write-if-absent).
  private async write(run: () => Promise<unknown>, what: string, stale: string[]): Promise<void> {
    try {
      await withTimeout(run(), PUBLISH_TIMEOUT_MS, 'Redis');
    } catch (error) {
      this.logger.warn(`Could not publish the state of ${what} (PostgreSQL has it; its cached state is deleted once Redis answers): ${(error as Error).message}`);
      this.settleLater(stale);
    }
  }

  private settleLater(keys: string[]): void {
    for (const key of keys) if (this.unsettled.size < MAX_UNSETTLED) this.unsettled.add(key);
    if (this.repairTimer || this.unsettled.size === 0) return;
    this.repairTimer = setInterval(() => void this.repair(), REPAIR_EVERY_MS);
    this.repairTimer.unref();
  }

  // Deleting is always safe: a reader without a cached state asks auth-service, which reads PostgreSQL.
  private async repair(): Promise<void> {
    if (this.repairing) return;
    this.repairing = true;
    const keys = [...this.unsettled].slice(0, 1000);
    try {
      await withTimeout(this.redis.del(...keys), PUBLISH_TIMEOUT_MS, 'Redis');
    } catch {
      return;
    } finally {
      this.repairing = false;
    }
    for (const key of keys) this.unsettled.delete(key);
    this.logger.log(`Deleted ${keys.length} cached state key(s) whose update Redis had missed`);
    // A process may have read the old state from Redis after the change's notice: it reads again.
    await this.announce({ all: true });
    if (this.unsettled.size === 0 && this.repairTimer) {
      clearInterval(this.repairTimer);
      this.repairTimer = null;
    }
  }
}
