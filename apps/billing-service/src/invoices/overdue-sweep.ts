import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository } from './invoices.repository';

/**
 * Marks unpaid invoices past their due date overdue (D10) every INVOICE_SWEEP_MS, and once at start. The database
 * decides what is due, and one replica at a time sweeps (an advisory lock, ADR 0046); should two ever overlap, they
 * share the rows (SKIP LOCKED) and a sweep that runs twice changes nothing more.
 */
@Injectable()
export class OverdueSweep extends ScheduledSweep<number> {
  constructor(
    private readonly invoices: InvoicesRepository,
    @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'INVOICE_SWEEP_MS'>,
    dataSource?: DataSource,
  ) {
    super({ label: 'Overdue sweep', context: 'OverdueSweep', intervalMs: config.INVOICE_SWEEP_MS, onFailure: 0, lock: dataSource });
  }

  /** Marks what is due; answers how many invoices became overdue. */
  protected async work(now: Date): Promise<number> {
    const count = await this.invoices.markOverdue(now);
    if (count > 0) this.logger.log(`${count} invoices are now overdue`);
    return count;
  }
}
