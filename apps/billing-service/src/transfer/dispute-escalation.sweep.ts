import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScheduledSweep } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { TransferSteps } from './transfer-steps';

/**
 * Escalates open disputes whose card hold has under 48 hours left (ADR 0039), every HOLD_SWEEP_MS and at start: each
 * once, with dispute.escalated for both parties' emails; the admin Payments tab shows them urgent. The hold expiry
 * sweep never lapses a disputed hold, so this is how a dispute keeps an admin's decision from being forgotten.
 */
@Injectable()
export class DisputeEscalationSweep extends ScheduledSweep<number> {
  constructor(
    private readonly transfer: TransferSteps,
    @Inject(BILLING_CONFIG) config: Pick<BillingConfig, 'HOLD_SWEEP_MS'>,
    dataSource?: DataSource,
  ) {
    super({ label: 'Dispute escalation', context: 'DisputeEscalation', intervalMs: config.HOLD_SWEEP_MS, onFailure: 0, lock: dataSource });
  }

  /** Escalates what is near its deadline; answers how many disputes were escalated. */
  protected async work(now: Date): Promise<number> {
    const count = await this.transfer.escalateNearDeadline(now);
    if (count > 0) this.logger.warn(`${count} disputes escalated: their card holds end within 48 hours`);
    return count;
  }
}
