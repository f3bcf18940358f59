import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RPC, type SessionState } from '@market/contracts';
import { withTimeout } from '../async/with-timeout';
import type { RpcClient } from '../rpc/rpc-client';
import { IdentityCache } from './identity-cache';
import type { BusKeys } from '../bus/bus-keys';
import { refusedOnBus } from '../bus/bus.metrics';
import { openAccountState, openSessionState, type Opened } from './sealed-states';

const REDIS_TIMEOUT_MS = 250;
// Deletes KEYS[1] only while it still holds ARGV[1].
const DELETE_IF_SAME = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
// After Redis failed a lookup, the next ones go straight to auth-service for this long, so a stalled Redis costs one
// request 250 ms per second instead of every request (ADR 0044).
const REDIS_BACKOFF_MS = 1_000;
// What a process caches after asking auth-service; auth-service overwrites both keys whenever they change. Kept short
// so PostgreSQL stays the authority: a lost or failed Redis write, or a restored Redis, is corrected within minutes.
export const ACCOUNT_STATE_TTL_SECONDS = 300;

/** The Redis key of an account's state (written by auth-service on every change, read by every process). */
export function accountStateKey(prefix: string, userId: string): string {
  return `${prefix}session:${userId}`;
}

/** The Redis key of a login session: '1' while it stands, '0' once it ended (logout, revoked). */
export function sessionKey(prefix: string, sessionId: string): string {
  return `${prefix}sid:${sessionId}`;
}

/**
 * Reads an account's state and a session's standing: from the process's own memory when it kept them (a few seconds,
 * dropped by auth-service's notice of a change, ADR 0057), else Redis (one round trip, at most 250 ms), else
 * auth-service when Redis has nothing or does not answer, whose answer is then cached (NX: a newer state auth wrote
 * meanwhile wins). After Redis failed, lookups skip it for a second (ADR 0044).
 *
 * The slow path is taken once, not once per request (ADR 0057): a kept state near its end is answered while one
 * background read renews it, and lookups of the same state while a read is under way share that read, unless a
 * notice came since it began (its answer may then predate the change). Without this every request of a busy
 * account paid the slow path together every few seconds, a burst of reads to auth-service while Redis was away.
 */
export class AccountStates {
  private readonly logger = new Logger('AccountStates');
  private skipRedisUntil = 0;
  // Reads under way, by account and session, with the cache's mark when each began.
  private readonly reading = new Map<string, { mark: number; state: Promise<SessionState> }>();

  constructor(
    private readonly redis: Redis,
    private readonly rpc: RpcClient,
    private readonly prefix: string,
    // auth-service's public keys among them: a stored state counts only when it signed it (ADR 0065).
    private readonly keys: BusKeys,
    private readonly memory: IdentityCache = new IdentityCache(),
  ) {}

  async lookup(userId: string, sessionId: string | null): Promise<SessionState> {
    const kept = this.memory.get(userId, sessionId);
    if (!kept) return this.load(userId, sessionId);
    // A failed renewal changes nothing: the kept state ends on time and the next lookup reads again.
    if (kept.refreshDue) this.load(userId, sessionId).catch(() => undefined);
    return { ...kept.account, session_active: kept.sessionLive };
  }

  /** How many reads are under way (tests). */
  get readsUnderWay(): number {
    return this.reading.size;
  }

  // One read per state at a time; a lookup joins one only if no notice came since it began.
  private load(userId: string, sessionId: string | null): Promise<SessionState> {
    const key = `${userId}/${sessionId ?? ''}`;
    const mark = this.memory.mark();
    const under = this.reading.get(key);
    if (under && under.mark === mark) return under.state;
    const state = this.read(userId, sessionId).then((read) => {
      const { session_active: live, sealed: _sealed, ...account } = read;
      this.memory.keep(mark, userId, account, sessionId, live);
      return read;
    });
    const entry = { mark, state };
    this.reading.set(key, entry);
    const done = () => {
      if (this.reading.get(key) === entry) this.reading.delete(key);
    };
    state.then(done, done);
    return state;
  }

  private async read(userId: string, sessionId: string | null): Promise<SessionState> {
    const keys = [accountStateKey(this.prefix, userId), ...(sessionId ? [sessionKey(this.prefix, sessionId)] : [])];
    let cached: (string | null)[] = [];
    if (Date.now() >= this.skipRedisUntil) {
      try {
        cached = await withTimeout(this.redis.mget(...keys), REDIS_TIMEOUT_MS, 'Redis');
      } catch (error) {
        this.skipRedisUntil = Date.now() + REDIS_BACKOFF_MS;
        this.logger.warn(`Account state from auth-service instead of Redis for ${REDIS_BACKOFF_MS} ms: ${(error as Error).message}`);
      }
    }
    const [storedAccount, storedSession] = cached;
    // What Redis holds counts only as auth-service signed it for this account and session (ADR 0065); anything else is
    // counted and read as nothing, so the answer comes from auth-service.
    const forged: Array<[string, string]> = [];
    const account = this.opened('account', keys[0], storedAccount ?? null, openAccountState(this.keys, userId, storedAccount ?? null), forged);
    const session = sessionId ? this.opened('session', keys[1], storedSession ?? null, openSessionState(this.keys, sessionId, storedSession ?? null), forged) : null;
    if (account && (!sessionId || session)) return { ...account.value, session_active: !sessionId || session?.value === true };
    const state = await this.rpc.call(RPC.auth.sessionState, sessionId ? { user_id: userId, session_id: sessionId } : { user_id: userId }, null);
    // Redis failing: no write-back, which would only spend another 250 ms of this request. A state auth-service did not
    // seal (an older version) is not stored: nothing here could sign it.
    if (Date.now() < this.skipRedisUntil || !state.sealed) return state;
    const writes = this.redis.multi();
    // A forged value is removed (only if it is still the one read: a state auth-service wrote since stays), so the NX
    // write below can replace it rather than every lookup going to auth-service until it expires.
    for (const [key, value] of forged) writes.eval(DELETE_IF_SAME, 1, key, value);
    writes.set(keys[0], state.sealed.account, 'EX', ACCOUNT_STATE_TTL_SECONDS, 'NX');
    if (sessionId && state.sealed.session) writes.set(keys[1], state.sealed.session, 'EX', ACCOUNT_STATE_TTL_SECONDS, 'NX');
    await withTimeout(writes.exec(), REDIS_TIMEOUT_MS, 'Redis').catch(() => undefined);
    return state;
  }

  // The stored value when believed; a forged one is counted and noted for removal.
  private opened<T>(what: string, key: string, raw: string | null, opened: Opened<T>, forged: Array<[string, string]>): { value: T } | null {
    if (opened === 'forged') {
      refusedOnBus('redis', key, `a ${what} state in Redis not signed by auth-service`);
      if (raw !== null) forged.push([key, raw]);
      return null;
    }
    return opened === 'absent' ? null : opened;
  }
}
