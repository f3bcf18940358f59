import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EventEnvelope, EventName, EventPayloads, UserContact } from '@market/contracts';
import { EventConsumers } from '@market/server-kit';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../notifications.config';
import { EmailQueue } from './email.queue';
import { UserContacts } from './user-contacts';
import type { Notice } from './notice';
import { subscribeMailable } from './notified-events';
import {
  bidAcceptedNotice,
  bidRejectedNotice,
  contactNotice,
  invoiceIssuedNotice,
  listingCancelledNotice,
  newMessageNotice,
  offerNotice,
  paymentNotice,
  saleEndedNotice,
  wonNotice,
} from './marketplace-email-templates';
import { reviewRequestNotice } from './review-email-templates';

type Handler<N extends EventName> = (event: EventEnvelope<N>) => Promise<void>;

/** Turns marketplace events into the D19 emails: offers, sale ends, invoices, payments, messages and contact mail. */
@Injectable()
export class MarketplaceEventsHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('MarketplaceEvents');

  constructor(
    private readonly consumers: EventConsumers,
    private readonly queue: EmailQueue,
    private readonly contacts: UserContacts,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async onApplicationBootstrap() {
    // bid.placed is BidEventsHandler's: outbid emails and the seller's digest have windows of their own (ADR 0056).
    await this.on('offer.made', ['listing_title'], (event) => this.notify(event, 'new_offer', event.payload.seller_id, offerNotice(event.payload)));
    await this.on('bid.rejected', ['listing_title'], (event) => this.notify(event, 'bid_rejected', event.payload.bidder_id, bidRejectedNotice(event.payload)));
    await this.on('auction.closed', ['pending_bids'], async (event) => {
      const e = event.payload;
      await this.notify(event, e.outcome === 'sold' ? 'sale_sold' : 'sale_ended', e.seller_id, saleEndedNotice(e));
      if (e.outcome === 'sold' && e.buyer_id) await this.notify(event, 'sale_won', e.buyer_id, wonNotice(e));
    });
    // Everyone who bid on a listing an admin cancelled, and its seller, learn why (ADR 0042): one email each, sent even
    // with notification emails off, because it voids what they committed to.
    await this.on('auction.cancelled', ['bidder_ids', 'reason'], async (event) => {
      const e = event.payload;
      if (e.notify_seller) await this.notify(event, 'listing_cancelled_seller', e.seller_id, listingCancelledNotice(e, 'seller'), undefined, true);
      for (const bidderId of e.bidder_ids) await this.notify(event, 'listing_cancelled_bidder', bidderId, listingCancelledNotice(e, 'bidder'), bidderId, true);
    }, { timely: false });
    await this.on('invoice.issued', ['buyer_id'], (event) => this.notify(event, 'invoice_issued', event.payload.buyer_id, invoiceIssuedNotice(event.payload)));
    for (const name of ['payment.authorized', 'payment.captured', 'payment.refunded'] as const) {
      const category = name.replace('.', '_');
      await this.on(name, ['buyer_id', 'seller_id'], async (event) => {
        await this.notify(event, `${category}_buyer`, event.payload.buyer_id, paymentNotice(name, 'buyer', event.payload));
        await this.notify(event, `${category}_seller`, event.payload.seller_id, paymentNotice(name, 'seller', event.payload));
      });
    }
    // D23: each party of a sale paid out is asked once for a review; the 60-day window makes a late email still useful.
    await this.on('sale.completed', ['website_title'], async (event) => {
      await this.notify(event, 'review_request_buyer', event.payload.buyer_id, reviewRequestNotice(event.payload, 'buyer'));
      await this.notify(event, 'review_request_seller', event.payload.seller_id, reviewRequestNotice(event.payload, 'seller'));
    }, { timely: false });
    await this.on('message.sent', ['receiver_id'], async (event) => {
      const sender = await this.contacts.find(event.payload.sender_id);
      await this.notify(event, 'new_message', event.payload.receiver_id, newMessageNotice(event.payload, sender?.username ?? 'A Site Market user'));
    });
    // A buyer whose bid the seller accepts after an unsold end learns it here: that sale has no auction.closed of its own.
    await this.on('bid.accepted', ['buyer_id', 'listing_title'], async (event) => {
      if (event.payload.sale === 'accepted_after_close') await this.notify(event, 'sale_won', event.payload.buyer_id, bidAcceptedNotice(event.payload));
    });
    // Support must read every contact message, however late the consumer catches up: it is never a stale notice.
    await this.on(
      'contact.received',
      ['email'],
      async (event) => {
        const sender = event.payload.user_id ? await this.contacts.find(event.payload.user_id) : null;
        const notice = contactNotice(event.payload, sender?.username ?? null);
        await this.queue.enqueue(`contact-${event.id}`, { kind: 'notice', category: 'contact', essential: true, to: this.config.SUPPORT_EMAIL, username: 'Site Market support', notice });
      },
      { timely: false },
    );
  }

  // Subscribes with the shared guard: stale or incomplete events are acknowledged without an email.
  private on<N extends EventName>(name: N, required: readonly (keyof EventPayloads[N] & string)[], handler: Handler<N>, options = { timely: true }) {
    return subscribeMailable(this.consumers, this.logger, name, required, handler, options);
  }

  // One job per event, recipient role and user (`each` tells apart the recipients of one role): a redelivered event
  // finds its jobs already queued.
  private async notify(event: EventEnvelope, category: string, userId: string, notice: Notice, each?: string, essential = false): Promise<void> {
    const user: UserContact | null = await this.contacts.find(userId);
    if (!user) return;
    await this.queue.enqueue(each ? `${category}-${event.id}-${each}` : `${category}-${event.id}`, { kind: 'notice', category, essential, to: user.email, username: user.username, notice });
  }
}
