import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { BillingClock } from '../clock/billing-clock';
import { ReconciliationService, type ReconciliationRun } from './reconciliation.service';

/**
 * Reconciles the ledger with the provider every RECONCILE_INTERVAL_MS (daily) and at start, on one replica at a time
 * (ADR 0046), over the last RECONCILE_WINDOW_DAYS days: a difference found late (a provider's correction) is still
 * found, and one fixed is closed (D22, ADR 0063).
 */
@Injectable()
export class ReconciliationSweep extends ScheduledSweep<ReconciliationRun | null> {
  constructor(
    private readonly reconciliation: ReconciliationService,
    private readonly clock: BillingClock,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'RECONCILE_INTERVAL_MS' | 'RECONCILE_WINDOW_DAYS'>,
    dataSource?: DataSource,
  ) {
    super({ label: 'Ledger reconciliation', context: 'ReconciliationSweep', intervalMs: config.RECONCILE_INTERVAL_MS, onFailure: null, lock: dataSource });
  }

  /** One run at billing's clock over the window; null when it failed or another replica holds the lock (through sweep()). */
  protected work(): Promise<ReconciliationRun | null> {
    return this.reconciliation.run(this.clock.now(), this.config.RECONCILE_WINDOW_DAYS);
  }
}
