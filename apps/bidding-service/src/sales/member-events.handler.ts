import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EventConsumers, OutboxRelay } from '@market/server-kit';
import type { MemberStatus } from './standing-bids.repository';
import { StandingBids } from './standing-bids';

/**
 * Moderation reaches the bids (ADR 0038): a suspended or deleted member's pending bids and offers are rejected and each
 * auction they were in is repriced; a deleted seller's sales end for good; a reactivated member may bid again (their
 * rejected bids stay rejected). The member's state is committed first, so a bid racing the sweep is refused or swept.
 * A removed member's sales already won and not yet paid are left as they are: cancelling them belongs to the payment
 * window, not to moderation (ADR 0038).
 */
@Injectable()
export class MemberEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('MemberEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly standing: StandingBids,
    private readonly relay: OutboxRelay,
  ) {}

  async onApplicationBootstrap() {
    await this.consumers.subscribe('user.suspended', (event) => this.moderate(event.payload.user_id, 'suspended', new Date(event.payload.at)));
    await this.consumers.subscribe('user.deleted', (event) => this.moderate(event.payload.user_id, 'deleted', new Date(event.occurred_at)));
    await this.consumers.subscribe('user.reactivated', async (event) => {
      await this.standing.recordMember(event.payload.user_id, 'active', new Date(event.payload.at));
    });
  }

  /**
   * Records the member's new state and, while it still stands (a later reactivation may already have been applied),
   * sweeps their bids; a deletion also ends their own sales. Safe to run again: nothing is left to sweep.
   */
  private async moderate(userId: string, status: Exclude<MemberStatus, 'active'>, at: Date): Promise<void> {
    const now = await this.standing.recordMember(userId, status, at);
    if (now === 'active') return;
    const repriced = await this.standing.sweepMember(userId, new Date());
    const ended = now === 'deleted' ? await this.standing.endSellerSales(userId, new Date()) : [];
    if (repriced.length + ended.length > 0) {
      this.logger.log(`Member ${userId} ${now}: ${repriced.length} auction(s) repriced, ${ended.length} sale(s) ended`);
      setImmediate(() => this.relay.kick());
    }
  }
}
