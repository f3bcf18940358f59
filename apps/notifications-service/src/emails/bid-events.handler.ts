import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@market/contracts';
import { EventConsumers, runWithRequestId } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import { unmailableReason } from './notified-events';
import { outbidNotice } from './bid-email-templates';
import { BidNoticesRepository } from './bid-notices.repository';

const REQUIRED = ['seller_id', 'listing_title', 'previous_leader_id'] as const;

/** A digest a bid opened, or found overdue: its email is queued once the batch's reads are done. */
interface Digest {
  event: EventEnvelope<'bid.placed'>;
  id: string;
  opened: boolean;
}

/**
 * The bid emails of D19 under ADR 0056: an outbid email when a bidder's maximum was passed, at most one per listing and
 * person per OUTBID_EMAIL_INTERVAL_MS, and one digest of new bids per listing and SELLER_BID_DIGEST_INTERVAL_MS to the
 * seller, instead of an email per bid. Both windows are decided in the transaction of the event's batch (ADR 0062).
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
    await this.consumers.subscribeBatch('bid.placed', (events, manager) => this.apply(events, manager));
  }

  /**
   * Counts each bid into its listing's digest and claims the outbid emails in stream order, asks auth for every address
   * the batch needs in one call, then queues the emails: digests first, outbid emails last, after every step of the
   * batch that could fail and roll back their claims while they stayed queued (which would let another bid's outbid
   * email through in the same window). A batch that fails is applied again one event at a time: its emails are queued
   * again under the same job ids, which adds nothing; a digest's job is keyed by its opening event.
   */
  private async apply(events: EventEnvelope<'bid.placed'>[], manager: EntityManager): Promise<void> {
    const interval = this.config.SELLER_BID_DIGEST_INTERVAL_MS;
    const digests: Digest[] = [];
    const outbid: EventEnvelope<'bid.placed'>[] = [];
    for (const event of events) {
      await runWithRequestId(event.request_id, async () => {
        // Stale or incomplete events are acknowledged without an email, and count in no digest (ADR 0024).
        const reason = unmailableReason(event, REQUIRED, new Date());
        if (reason) {
          this.logger.warn(`No email for bid.placed ${event.id}: ${reason}`);
          return;
        }
        // The bid that opens a listing's digest schedules its email for the end of the window; later bids only join
        // it. A digest still open well past its time lost its job (Redis lost it): a joining bid queues it again under
        // the same id, which changes nothing while the job still exists.
        const digest = await this.notices.addToDigest(manager, event.id, event.payload, interval);
        if (digest.opened || digest.overdue) digests.push({ event, id: digest.id, opened: digest.opened });
        if (await this.claimOutbid(event, manager)) outbid.push(event);
      });
    }
    const contacts = await this.contacts.findAll([...digests.map((d) => d.event.payload.seller_id), ...outbid.map((event) => event.payload.previous_leader_id as string)]);
    for (const { event, id, opened } of digests) {
      const seller = contacts.get(event.payload.seller_id);
      if (!seller) {
        if (opened) await this.notices.dropDigest(manager, id);
        continue;
      }
      await runWithRequestId(event.request_id, () =>
        this.queue.enqueue(
          `bid_digest-${id}`,
          { kind: 'bid_digest', digest_id: id, listing_id: event.payload.listing_id, to: seller.email, username: seller.username },
          { delayMs: opened ? interval : undefined },
        ),
      );
    }
    for (const event of outbid) {
      const to = contacts.get(event.payload.previous_leader_id as string);
      if (!to) continue;
      await runWithRequestId(event.request_id, () =>
        this.queue.enqueue(`outbid-${event.id}`, { kind: 'notice', category: 'outbid', essential: false, to: to.email, username: to.username, notice: outbidNotice(event.payload) }),
      );
    }
  }

  // bidding-service names a previous leader only when the lead changed hands, i.e. their maximum was passed (ADR 0055):
  // an automatic bid that keeps its bidder in the lead names nobody.
  private async claimOutbid(event: EventEnvelope<'bid.placed'>, manager: EntityManager): Promise<boolean> {
    const e = event.payload;
    const loser = e.previous_leader_id;
    if (!loser || loser === e.bidder_id) return false;
    if (await this.notices.claimOutbid(manager, e.listing_id, loser, this.config.OUTBID_EMAIL_INTERVAL_MS)) return true;
    this.logger.debug(`No outbid email for bid.placed ${event.id}: one went to ${loser} about ${e.listing_id} less than ${this.config.OUTBID_EMAIL_INTERVAL_MS} ms ago`);
    return false;
  }
}
