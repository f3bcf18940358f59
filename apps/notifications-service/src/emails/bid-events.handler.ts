import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, UserContact } from '@market/contracts';
import { EventConsumers } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import { unmailableReason } from './notified-events';
import { outbidNotice } from './bid-email-templates';
import { BidNoticesRepository } from './bid-notices.repository';

const REQUIRED = ['seller_id', 'listing_title', 'previous_leader_id'] as const;

/** An outbid email claimed in the batch's transaction, to queue once the batch's other steps are done. */
interface Outbid {
  event: EventEnvelope<'bid.placed'>;
  to: UserContact;
}

/**
 * The bid emails of D19 under ADR 0056: an outbid email when a bidder's maximum was passed, at most one per listing and
 * person per OUTBID_EMAIL_INTERVAL_MS, and one digest of new bids per listing and SELLER_BID_DIGEST_INTERVAL_MS to the
 * seller, instead of an email per bid. Both windows are decided in the event's transaction.
 */
@Injectable()
export class BidEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('BidEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
    private readonly notices: BidNoticesRepository,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async onApplicationBootstrap() {
    // A batch of events in one transaction (ADR 0062): a storm costs a transaction per batch, not per bid.
    await this.consumers.subscribeBatch('bid.placed', async (events, manager) => {
      const outbid: Outbid[] = [];
      for (const event of events) {
        // Stale or incomplete events are acknowledged without an email, and count in no digest (ADR 0024).
        const reason = unmailableReason(event, REQUIRED, new Date());
        if (reason) {
          this.logger.warn(`No email for bid.placed ${event.id}: ${reason}`);
          continue;
        }
        await this.digest(event, manager);
        const claimed = await this.claimOutbid(event, manager);
        if (claimed) outbid.push(claimed);
      }
      // Outbid emails are queued last, after every step of the batch that could fail and roll back their claims while
      // they stayed queued (which would let another bid's outbid email through in the same window). A batch that fails
      // is applied again one event at a time: its emails are queued again under the same job ids, which adds nothing.
      // The digest's job is keyed by its opening event, so queueing it on an attempt that rolls back is harmless too.
      for (const { event, to } of outbid) {
        await this.queue.enqueue(`outbid-${event.id}`, { kind: 'notice', category: 'outbid', essential: false, to: to.email, username: to.username, notice: outbidNotice(event.payload) });
      }
    });
  }

  // bidding-service names a previous leader only when the lead changed hands, i.e. their maximum was passed (ADR 0055):
  // an automatic bid that keeps its bidder in the lead names nobody.
  private async claimOutbid(event: EventEnvelope<'bid.placed'>, manager: EntityManager): Promise<Outbid | null> {
    const e = event.payload;
    const loser = e.previous_leader_id;
    if (!loser || loser === e.bidder_id) return null;
    if (!(await this.notices.claimOutbid(manager, e.listing_id, loser, this.config.OUTBID_EMAIL_INTERVAL_MS))) {
      this.logger.debug(`No outbid email for bid.placed ${event.id}: one went to ${loser} about ${e.listing_id} less than ${this.config.OUTBID_EMAIL_INTERVAL_MS} ms ago`);
      return null;
    }
    const to = await this.contacts.find(loser);
    return to ? { event, to } : null;
  }

  // The bid that opens a listing's digest schedules its email for the end of the window; later bids only join it. A
  // digest still open well past its time lost its job (Redis lost it): a joining bid queues it again under the same id,
  // which changes nothing while the job still exists.
  private async digest(event: EventEnvelope<'bid.placed'>, manager: EntityManager): Promise<void> {
    const e = event.payload;
    const interval = this.config.SELLER_BID_DIGEST_INTERVAL_MS;
    const digest = await this.notices.addToDigest(manager, event.id, e, interval);
    if (!digest.opened && !digest.overdue) return;
    const seller = await this.contacts.find(e.seller_id);
    if (!seller) {
      if (digest.opened) await this.notices.dropDigest(manager, digest.id);
      return;
    }
    await this.queue.enqueue(
      `bid_digest-${digest.id}`,
      { kind: 'bid_digest', digest_id: digest.id, listing_id: e.listing_id, to: seller.email, username: seller.username },
      { delayMs: digest.opened ? interval : undefined },
    );
  }
}
