/**
 * The seal nonces of the requests a process took, until each one's expiry (ADR 0065, 0068): the same sealed request
 * taken twice is a replay, refused. Kept in memory, so a replay that NATS hands to another replica of the service is not
 * seen here; the expiry (the caller's deadline, at most 125 s) bounds it there.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;

  constructor(private readonly sweepEveryMs = 5_000) {}

  /** True the first time `nonce` (a request's) is offered before `expiresAt` (epoch ms); false for every later time. */
  firstTime(nonce: string, expiresAt: number, now = Date.now()): boolean {
    if (now >= this.nextSweep) this.sweep(now);
    const known = this.seen.get(nonce);
    if (known !== undefined && known > now) return false;
    this.seen.set(nonce, expiresAt);
    return true;
  }

  /** How many nonces are kept (tests). */
  get size(): number {
    return this.seen.size;
  }

  private sweep(now: number): void {
    this.nextSweep = now + this.sweepEveryMs;
    for (const [nonce, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(nonce);
  }
}
