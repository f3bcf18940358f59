import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { TransferRepository } from './transfer.repository';

/**
 * Escalates open disputes whose card hold has under 48 hours left (ADR 0039), every HOLD_SWEEP_MS and at start: each
 * once, with dispute.escalated for both parties' emails; the admin Payments tab shows them urgent. The hold expiry
 * sweep never lapses a disputed hold, so this is how a dispute keeps an admin's decision from being forgotten.
 */
@Injectable()
export class DisputeEscalationSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DisputeEscalation');
  private readonly periodic: PeriodicSweep<number>;

  constructor(
    private readonly transfer: TransferRepository,
    @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'HOLD_SWEEP_MS'>,
    dataSource?: DataSource,
  ) {
    this.periodic = new PeriodicSweep({ label: 'Dispute escalation', intervalMs: config.HOLD_SWEEP_MS, logger: this.logger, onFailure: 0, lock: dataSource }, (now) =>
      this.escalate(now),
    );
  }

  onApplicationBootstrap() {
    this.periodic.start(true);
  }

  onApplicationShutdown() {
    return this.periodic.stop();
  }

  /** One sweep (joined if one runs); returns how many disputes were escalated. */
  sweep(now = new Date()): Promise<number> {
    return this.periodic.run(now);
  }

  private async escalate(now: Date): Promise<number> {
    const count = await this.transfer.escalateNearDeadline(now);
    if (count > 0) this.logger.warn(`${count} disputes escalated: their card holds end within 48 hours`);
    return count;
  }
}
