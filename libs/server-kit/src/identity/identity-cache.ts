import { Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from 'nats';
import { IDENTITY_CHANGED_SUBJECT, IdentityChangeSchema, type AccountState, type IdentityChange } from '@market/contracts';

// The backstop (ADR 0057): a notice lost without the connection noticing keeps an old state at most this long.
export const IDENTITY_CACHE_TTL_MS = 5_000;
// A kept state this close to its end is still answered, and its reader asks again in the background (refresh ahead):
// a busy account never waits on the slow path at the end of its time to live, while Redis is away least of all.
const REFRESH_BEFORE_END = 0.3;
// Entries per map; the oldest goes first (a Map iterates in insertion order).
const CACHE_LIMIT = 50_000;

interface Entry<T> {
  value: T;
  until: number;
}

/**
 * Account and session states a process keeps in memory for a few seconds, so a busy client's token check costs no
 * round trip to Redis (ADR 0057). auth-service announces every change on `identity.changed` before it answers the
 * request that made it; each process drops what the notice names. States are kept only while the process hears those
 * notices: while NATS is away it keeps nothing and forgets everything, and an answer to a question asked before the
 * latest notice is never kept (it may predate the change).
 */
export class IdentityCache {
  private readonly logger = new Logger('IdentityCache');
  private readonly accounts = new Map<string, Entry<AccountState>>();
  private readonly sessions = new Map<string, Entry<boolean>>();
  private subscription: Subscription | null = null;
  private hearing = false;
  // Counts notices (and losses of hearing): a lookup's answer is kept only if none came while it was asked.
  private generation = 0;
  // Counts losses of hearing: a reconnect's flush resumes keeping only if no newer loss came meanwhile.
  private losses = 0;

  constructor(
    private readonly ttlMs = IDENTITY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The moment a lookup starts, to pass to `keep` with its answer. */
  mark(): number {
    return this.generation;
  }

  /**
   * The account's state, and the session's standing when one is named; null unless both are kept and fresh.
   * `refreshDue` once either is in the last part of its time to live: still valid, worth asking again off the request.
   */
  get(userId: string, sessionId: string | null): { account: AccountState; sessionLive: boolean; refreshDue: boolean } | null {
    if (!this.hearing) return null;
    const now = this.now();
    const account = this.fresh(this.accounts, userId, now);
    if (!account) return null;
    const dueAt = now + this.ttlMs * REFRESH_BEFORE_END;
    if (sessionId === null) return { account: account.value, sessionLive: true, refreshDue: account.until <= dueAt };
    const live = this.fresh(this.sessions, sessionId, now);
    if (!live) return null;
    return { account: account.value, sessionLive: live.value, refreshDue: Math.min(account.until, live.until) <= dueAt };
  }

  /** Keeps a lookup's answer, unless a notice came since `mark` (or the process is not hearing notices). */
  keep(mark: number, userId: string, account: AccountState, sessionId: string | null, sessionLive: boolean): void {
    if (!this.hearing || mark !== this.generation) return;
    const until = this.now() + this.ttlMs;
    put(this.accounts, userId, { value: account, until });
    if (sessionId !== null) put(this.sessions, sessionId, { value: sessionLive, until });
  }

  /** Drops what a change names (auth-service calls this itself before announcing it). */
  forget(change: IdentityChange): void {
    this.generation += 1;
    if (change.all) {
      this.accounts.clear();
      this.sessions.clear();
      return;
    }
    for (const id of change.users ?? []) this.accounts.delete(id);
    for (const id of change.sessions ?? []) this.sessions.delete(id);
  }

  /**
   * Subscribes to the notices on this connection and keeps states only while it hears them: a disconnect forgets
   * everything, and keeping resumes once the subscription is back on the server after a reconnect.
   */
  async listen(nc: NatsConnection, subjectPrefix: string): Promise<void> {
    this.subscription = nc.subscribe(`${subjectPrefix}${IDENTITY_CHANGED_SUBJECT}`, {
      callback: (error, msg) => {
        if (error) return this.deaf(`notice subscription failed: ${error.message}`);
        this.forget(parseChange(msg.data));
      },
    });
    // The server has the subscription once it answered a ping sent after it: no notice from then on is missed.
    await nc.flush();
    this.hearing = true;
    void this.watch(nc);
  }

  /** Stops listening and forgets everything. */
  close(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.deaf(null);
  }

  /** How many states are kept (tests, metrics). */
  get size(): number {
    return this.accounts.size + this.sessions.size;
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'staleConnection' || status.type === 'reconnecting') this.deaf(`NATS ${status.type}`);
      else if (status.type === 'reconnect' && this.subscription) {
        // nats.js resubscribes on reconnect; the flush makes sure the server has it before states are kept again.
        const losses = this.losses;
        await nc.flush().then(
          () => (this.hearing = this.subscription !== null && losses === this.losses),
          () => undefined,
        );
      }
    }
  }

  private deaf(why: string | null): void {
    if (why && this.hearing) this.logger.warn(`Keeping no account states until notices are heard again (${why})`);
    this.hearing = false;
    this.losses += 1;
    this.forget({ all: true });
  }

  private fresh<T>(map: Map<string, Entry<T>>, key: string, now: number): Entry<T> | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry;
    map.delete(key);
    return undefined;
  }
}

function put<T>(map: Map<string, Entry<T>>, key: string, entry: Entry<T>): void {
  map.delete(key);
  map.set(key, entry);
  if (map.size > CACHE_LIMIT) map.delete(map.keys().next().value as string);
}

/** A notice's change; anything unreadable drops everything (the safe reading). */
function parseChange(data: Uint8Array): IdentityChange {
  try {
    const parsed = IdentityChangeSchema.safeParse(JSON.parse(new TextDecoder().decode(data)));
    return parsed.success ? parsed.data : { all: true };
  } catch {
    return { all: true };
  }
}
