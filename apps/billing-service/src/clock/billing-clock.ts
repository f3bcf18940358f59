import { Inject, Injectable, Logger } from '@nestjs/common';
import { readFileSync, statSync } from 'node:fs';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';

/**
 * Billing's clock for the decisions that wait on time (escrow capture, auto-release, reconciliation windows). In
 * production it is the system clock. BILLING_CLOCK_FILE (tests only, refused with NODE_ENV=production) names a JSON
 * file `{"offset_ms": n}` whose offset is added, so a journey can let an inspection period pass without sleeping
 * (ADR 0063); the file is read again whenever it changes.
 */
@Injectable()
export class BillingClock {
  private readonly logger = new Logger('BillingClock');
  private offset = 0;
  private seen = -1;

  constructor(@Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'BILLING_CLOCK_FILE'>) {}

  /** Now, as billing decides by it. */
  now(): Date {
    return new Date(Date.now() + this.offsetMs());
  }

  private offsetMs(): number {
    const file = this.config.BILLING_CLOCK_FILE;
    if (!file) return 0;
    try {
      const changed = statSync(file).mtimeMs;
      if (changed !== this.seen) {
        this.seen = changed;
        const offset = Number((JSON.parse(readFileSync(file, 'utf8')) as { offset_ms?: unknown }).offset_ms ?? 0);
        this.offset = Number.isFinite(offset) ? offset : 0;
        this.logger.warn(`Test clock: ${this.offset} ms ahead of the system clock`);
      }
    } catch {
      // No file (yet), or one half-written: the system clock until a readable one appears.
      this.offset = 0;
      this.seen = -1;
    }
    return this.offset;
  }
}
