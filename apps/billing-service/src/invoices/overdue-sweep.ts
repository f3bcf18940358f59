import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository } from './invoices.repository';

/**
 * Marks unpaid invoices past their due date overdue (D10) every INVOICE_SWEEP_MS, and once at start. The database
 * decides what is due, and one replica at a time sweeps (an advisory lock, ADR 0046); should two ever overlap, they
 * share the rows (SKIP LOCKED) and a sweep that runs twice changes nothing more.
 */
@Injectable()
export class OverdueSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OverdueSweep');
  private readonly periodic: PeriodicSweep<number>;

  constructor(
    private readonly invoices: InvoicesRepository,
    @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'INVOICE_SWEEP_MS'>,
    dataSource?: DataSource,
  ) {
    this.periodic = new PeriodicSweep({ label: 'Overdue sweep', intervalMs: config.INVOICE_SWEEP_MS, logger: this.logger, onFailure: 0, lock: dataSource }, (now) =>
      this.markOverdue(now),
    );
  }

  onApplicationBootstrap() {
    this.periodic.start(true);
  }

  onApplicationShutdown() {
    return this.periodic.stop();
  }

  /** One sweep (a sweep already running is joined, not doubled); returns how many invoices became overdue. */
  sweep(now = new Date()): Promise<number> {
    return this.periodic.run(now);
  }

  private async markOverdue(now: Date): Promise<number> {
    const count = await this.invoices.markOverdue(now);
    if (count > 0) this.logger.log(`${count} invoices are now overdue`);
    return count;
  }
}
