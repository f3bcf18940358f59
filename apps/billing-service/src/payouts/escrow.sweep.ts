import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DEFAULT_INSPECTION_DAYS, HOLD_DAYS, isInspectionDays } from '@market/domain';
import { ScheduledSweep, SettingsClient } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { BillingClock } from '../clock/billing-clock';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import { EscrowService } from '../payments/escrow.service';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { PayoutSender } from './payout-sender';

const BATCH = 500;

/** What one sweep did. */
export interface EscrowSweepResult {
  captured: number;
  released: number;
  paid: number;
}

/**
 * Moves held money on time (D22, ADR 0063), every PAYOUT_SWEEP_MS and at start, on one replica at a time (the sweep's
 * advisory lock, ADR 0046): holds whose seller started the transfer, or whose 7-day deadline is within
 * ESCROW_CAPTURE_LEAD_HOURS, are captured into escrow; invoices whose transfer was verified (the buyer's domain proof or
 * "received") `inspection_days` ago with no open dispute are released; payouts not yet sent are sent (retried after an
 * outage, under the same idempotency key). Each step keeps going past a failing item, which stays for the next round.
 */
@Injectable()
export class EscrowSweep extends ScheduledSweep<EscrowSweepResult> {
  constructor(
    private readonly intents: PaymentIntentsRepository,
    private readonly escrow: EscrowService,
    private readonly payouts: PayoutsService,
    private readonly sender: PayoutSender,
    private readonly releases: PayoutsRepository,
    private readonly settings: SettingsClient,
    private readonly clock: BillingClock,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'PAYOUT_SWEEP_MS' | 'ESCROW_CAPTURE_LEAD_HOURS'>,
    dataSource?: DataSource,
  ) {
    super({ label: 'Escrow sweep', context: 'EscrowSweep', intervalMs: config.PAYOUT_SWEEP_MS, onFailure: { captured: 0, released: 0, paid: 0 }, lock: dataSource });
  }

  /** One sweep at billing's clock (joined if one runs). */
  override sweep(now = this.clock.now()): Promise<EscrowSweepResult> {
    return super.sweep(now);
  }

  /** Captures what is due, releases what waited its inspection days, sends pending payouts. */
  protected async work(at: Date): Promise<EscrowSweepResult> {
    // The periodic timer passes the system clock; billing decides by its own (a test clock may be ahead).
    const now = this.clock.now().getTime() > at.getTime() ? this.clock.now() : at;
    const captured = await this.captureDue(now);
    const released = await this.releaseDue(now);
    // Payouts not yet sent, and those waiting on accounts whose account.updated may have been missed.
    const paid = (await this.sender.sendPending(BATCH * 4)) + (await this.sender.refreshWaiting(50));
    if (captured + released + paid > 0) this.logger.log(`Escrow: ${captured} holds captured, ${released} releases, ${paid} payouts sent`);
    return { captured, released, paid };
  }

  private async captureDue(now: Date): Promise<number> {
    // A hold is due when now is past its deadline less the lead: authorised before now - (7 days - lead).
    const dueBefore = new Date(now.getTime() - (HOLD_DAYS * 24 - this.config.ESCROW_CAPTURE_LEAD_HOURS) * 3600_000);
    let captured = 0;
    for (const intentId of await this.intents.holdsToCapture(dueBefore, BATCH)) {
      if ((await this.escrow.capture(intentId)) === 'captured') captured += 1;
    }
    return captured;
  }

  private async releaseDue(now: Date): Promise<number> {
    // The admin's inspection period must be known: releasing on a default could pay out before a longer period ends.
    const days = await this.settings
      .get({ requireKnown: true })
      .then((s) => (isInspectionDays(s.inspection_days) ? s.inspection_days : DEFAULT_INSPECTION_DAYS))
      .catch((error: unknown) => {
        this.logger.warn(`No automatic releases this round: ${(error as Error).message}`);
        return null;
      });
    if (days === null) return 0;
    const due = await this.releases.dueForRelease(now, days, BATCH * 20);
    const released = await this.payouts.releaseMany(due, { by: 'inspection' }).catch((error: unknown) => {
      this.logger.warn(`Releases failed this round; tried again next round: ${(error as Error).message}`);
      return 0;
    });
    return released;
  }
}
