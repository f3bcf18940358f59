import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository } from './invoices.repository';

/**
 * Marks unpaid invoices past their due date overdue (D10) every INVOICE_SWEEP_MS, and once at start. The database
 * decides what is due, so every replica may sweep: they share the rows (SKIP LOCKED) and a sweep that runs twice
 * changes nothing more.
 */
@Injectable()
export class OverdueSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OverdueSweep');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly invoices: InvoicesRepository,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'INVOICE_SWEEP_MS'>,
  ) {}

  onApplicationBootstrap() {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.config.INVOICE_SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /** One sweep (a sweep already running is joined, not doubled); returns how many invoices became overdue. */
  sweep(now = new Date()): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      try {
        const count = await this.invoices.markOverdue(now);
        if (count > 0) this.logger.log(`${count} invoices are now overdue`);
        return count;
      } catch (error) {
        this.logger.warn(`Overdue sweep failed: ${(error as Error).message}`);
        return 0;
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }
}
