import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { connect, type NatsConnection } from 'nats';
import { createServiceApp, parseEnvOrThrow, serviceEnv } from '@market/server-kit';
import { buildUser, busEnvOf, closeAll, createTestDatabase, deleteStream, eventually, isolatedEnv, publishSignedEvent, type TestDatabase } from '@market/server-kit/testing';
import type { EventEnvelope, EventName, EventPayloads, PaymentFacts } from '@market/contracts';
import { authEnv } from '../../../auth-service/src/auth.config';
import { authAppModule } from '../../../auth-service/src/app.module';
import { AuthService } from '../../../auth-service/src/auth/auth.service';
import { adminAppModule } from '../../../admin-service/src/app.module';
import { notificationsEnv } from '../../../notifications-service/src/notifications.config';
import { notificationsAppModule } from '../../../notifications-service/src/app.module';
import { EmailsRepository } from '../../../notifications-service/src/emails/emails.repository';
import { EMAIL_QUEUE, NOTICE_PRIORITY } from '../../../notifications-service/src/emails/email.queue';
import { emailQueueIdle } from '../support/email-jobs';

interface Person {
  id: string;
  username: string;
  email: string;
}

describe('marketplace events through the bus to emails (D19)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let auth: INestApplication;
  let notifications: INestApplication;
  // The mailer reads the SMTP settings from the admin service and never mails from built-in defaults.
  let admin: INestApplication;
  let nc: NatsConnection;
  let seller: Person;
  let buyer: Person;
  let rival: Person;

  const person = async (): Promise<Person> => {
    const user = buildUser();
    const { user: made } = await auth.get(AuthService).register(user);
    return { id: made.id, username: user.username, email: user.email };
  };
  // Publishes one event; `copies` more times under new message ids, as a relay retrying after a crash would.
  const publish = async <N extends EventName>(name: N, payload: EventPayloads[N], options: { copies?: number; occurredAt?: string } = {}) => {
    const envelope: EventEnvelope<N> = { id: randomUUID(), name, occurred_at: options.occurredAt ?? new Date().toISOString(), request_id: null, payload };
    for (let i = 0; i <= (options.copies ?? 1); i += 1) {
      await publishSignedEvent(nc, env, envelope as EventEnvelope, { msgID: randomUUID() });
    }
    return envelope.id;
  };
  // The marketplace emails a person got (registration's own emails left out).
  const mail = async (to: Person) =>
    (await notifications.get(EmailsRepository).sentTo(to.email))
      .filter((m) => m.kind !== 'welcome' && m.kind !== 'verify_email')
      .map((m) => `${m.kind}: ${m.subject}`)
      .sort();
  const body = async (kind: string, to: Person): Promise<string> => {
    const [row] = await notifications.get(DataSource).query('SELECT text_body FROM emails WHERE kind = $1 AND lower(to_address) = lower($2)', [kind, to.email]);
    return row?.text_body ?? '';
  };

  beforeAll(async () => {
    db = await createTestDatabase('d19');
    env = isolatedEnv(db.url);
    const authConfig = parseEnvOrThrow(authEnv, busEnvOf(env, 'auth-service'));
    auth = await createServiceApp({ service: 'auth-service', module: authAppModule(authConfig), config: authConfig, defaultHealthPort: 0, healthPort: 0 });
    const adminConfig = parseEnvOrThrow(serviceEnv, busEnvOf(env, 'admin-service'));
    admin = await createServiceApp({ service: 'admin-service', module: adminAppModule(adminConfig), config: adminConfig, defaultHealthPort: 0, healthPort: 0 });
    // The seller's digest of new bids is mailed 2 s after the first bid instead of 10 minutes (ADR 0056).
    const config = parseEnvOrThrow(notificationsEnv, { ...busEnvOf(env, 'notifications-service'), PUBLIC_URL: 'https://market.example', SELLER_BID_DIGEST_INTERVAL_MS: '2000' });
    notifications = await createServiceApp({ service: 'notifications-service', module: notificationsAppModule(config), config, defaultHealthPort: 0, healthPort: 0 });
    nc = await connect({ servers: env.NATS_URL });
    [seller, buyer, rival] = [await person(), await person(), await person()];
  });

  afterAll(async () => {
    await nc?.close();
    await closeAll(auth, notifications, admin);
    await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
    await db?.drop();
  });

  // A listing's bids (bidder, amount, the leader they passed), its sale and the invoice's payment, each event `copies`
  // more times; returns the first bid's and the invoice's ids.
  const sellAndPay = async (parties: { seller: Person; buyer: Person }, bids: [Person, number, Person | null][], invoiceNumber: string, copies: number) => {
    const listing = randomUUID();
    const { seller: owner, buyer: winner } = parties;
    const bidIds: string[] = [];
    for (const [bidder, amount, previous] of bids) {
      bidIds.push(
        await publish(
          'bid.placed',
          {
            bid_id: randomUUID(),
            listing_id: listing,
            bidder_id: bidder.id,
            bidder_name: bidder.username,
            amount,
            current_bid: amount,
            bid_count: 1,
            reserve_met: true,
            expires_at: '2030-01-01T00:00:00.000Z',
            extended: false,
            created_at: new Date().toISOString(),
            seller_id: owner.id,
            listing_title: 'Cooking blog',
            previous_leader_id: previous?.id ?? null,
          },
          { copies },
        ),
      );
    }
    const amount = bids[bids.length - 1][1];
    await publish(
      'auction.closed',
      { listing_id: listing, listing_title: 'Cooking blog', seller_id: owner.id, outcome: 'sold', reason: 'won', winning_bid_id: randomUUID(), buyer_id: winner.id, amount, closed_at: new Date().toISOString(), pending_bids: 0 },
      { copies },
    );
    const invoice = randomUUID();
    const parts = { invoice_id: invoice, invoice_number: invoiceNumber, buyer_id: winner.id, seller_id: owner.id, website_title: 'Cooking blog' };
    await publish('invoice.issued', { ...parts, total_amount: amount, due_date: '2026-12-01T00:00:00.000Z', issued_at: new Date().toISOString() }, { copies });
    const facts: PaymentFacts = { ...parts, payment_intent_id: randomUUID(), amount, at: new Date().toISOString() };
    for (const name of ['payment.authorized', 'payment.captured', 'payment.refunded'] as const) await publish(name, facts, { copies });
    // The release (D22): waiting for the seller's payout account, then sent: the sale price less a 5% fee.
    const payout = { payout_id: randomUUID(), invoice_id: invoice, invoice_number: invoiceNumber, seller_id: owner.id, website_title: 'Cooking blog' };
    const fee = amount * 0.05;
    await publish('payout.waiting', { ...payout, net: amount - fee, account_status: 'not_started', at: new Date().toISOString() }, { copies });
    await publish('payout.sent', { ...payout, buyer_id: winner.id, gross: amount, fee, net: amount - fee, sent_at: new Date().toISOString() }, { copies });
    // The sale is complete (D23): each party is asked for a review.
    await publish('sale.completed', { ...parts, listing_id: listing, completed_at: new Date().toISOString() }, { copies });
    return { listing, firstBid: bidIds[0], invoice };
  };

  it('emails each party once per event (the seller once for the bids of a window), even when the event arrives twice', async () => {
    // A bidder raising their own lead is not outbid.
    const bids: [Person, number, Person | null][] = [[rival, 1000, null], [buyer, 1050, rival], [buyer, 1100, null]];
    const { listing, firstBid, invoice } = await sellAndPay({ seller, buyer }, bids, 'INV-2026-000042', 1);

    const expected = {
      seller: [
        'bid_digest: 3 new bids on "Cooking blog": now $1,100',
        'payment_authorized_seller: The buyer paid for "Cooking blog"',
        "payment_captured_seller: The buyer's funds are in escrow for \"Cooking blog\"",
        'payment_refunded_seller: Payment refunded for "Cooking blog"',
        'payout_sent_seller: Funds released for "Cooking blog"',
        'payout_waiting_seller: Set up payouts to receive $1,045 for "Cooking blog"',
        'review_request_seller: How did the sale of "Cooking blog" go?',
        'sale_sold: "Cooking blog" sold for $1,100',
      ],
      buyer: [
        'invoice_issued: Invoice INV-2026-000042 for "Cooking blog"',
        'payment_authorized_buyer: Payment held for INV-2026-000042',
        'payment_captured_buyer: Your payment is held in escrow for INV-2026-000042',
        'payment_refunded_buyer: Refund for INV-2026-000042',
        'payout_sent_buyer: Purchase complete: Cooking blog',
        'review_request_buyer: How did the sale of "Cooking blog" go?',
        'sale_won: You won "Cooking blog"',
      ],
      rival: ['outbid: You\'ve been outbid on "Cooking blog"'],
    };
    await eventually(async () => {
      expect(await mail(seller)).toEqual(expected.seller);
      expect(await mail(buyer)).toEqual(expected.buyer);
      expect(await mail(rival)).toEqual(expected.rival);
    }, 20_000);
    // The second copies may still be queued behind the first in each consumer. A marker sale for other people goes
    // through the same consumers (each handles its events in stream order); once its emails are out and the email
    // queue is idle, every copy was handled and anything it queued was sent, so the counts below are final.
    const marker = { seller: await person(), buyer: await person() };
    await sellAndPay(marker, [[marker.buyer, 500, null]], 'INV-2026-000043', 0);
    await eventually(async () => {
      expect(await mail(marker.seller)).toHaveLength(8);
      expect(await mail(marker.buyer)).toHaveLength(7);
    }, 20_000);
    await emailQueueIdle(env);
    expect({ seller: await mail(seller), buyer: await mail(buyer), rival: await mail(rival) }).toEqual(expected);
    // Notices are queued behind account emails (verification and reset never wait behind a burst of bids).
    const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(EMAIL_QUEUE, { connection: redis, prefix: env.QUEUE_PREFIX });
    try {
      expect((await queue.getJob(`bid_digest-${firstBid}`))?.opts.priority).toBe(NOTICE_PRIORITY);
    } finally {
      await queue.close();
      redis.disconnect();
    }
    expect(await body('invoice_issued', buyer)).toContain(`https://market.example/dashboard?tab=invoices&pay=${invoice}`);
    expect(await body('outbid', rival)).toContain(`https://market.example/listing/${listing}`);
  });

  it('tells the seller of an unsold end and the bids still open to them', async () => {
    const other = await person();
    await publish('auction.closed', {
      listing_id: randomUUID(),
      listing_title: 'Travel site',
      seller_id: other.id,
      outcome: 'expired',
      reason: 'reserve_not_met',
      winning_bid_id: null,
      buyer_id: null,
      amount: null,
      closed_at: new Date().toISOString(),
      pending_bids: 3,
    });
    await eventually(async () => expect(await mail(other)).toEqual(['sale_ended: Your listing "Travel site" has ended']), 15_000);
    const text = await body('sale_ended', other);
    expect(text).toContain('the reserve price was not met');
    expect(text).toContain('3 bids are still open: you can accept one from My Bids within 7 days.');
  });

  it('sends no email for a stale event, nor for an incomplete one (dead-lettered), and goes on', async () => {
    const quiet = await person();
    const closed = (overrides: Partial<EventPayloads['auction.closed']>): EventPayloads['auction.closed'] => ({
      listing_id: randomUUID(),
      listing_title: 'Old news',
      seller_id: quiet.id,
      outcome: 'expired',
      reason: 'no_bids',
      winning_bid_id: null,
      buyer_id: null,
      amount: null,
      closed_at: new Date().toISOString(),
      pending_bids: 0,
      ...overrides,
    });
    await publish('auction.closed', closed({}), { occurredAt: new Date(Date.now() - 25 * 3600 * 1000).toISOString() });
    const incomplete = closed({}) as Partial<EventPayloads['auction.closed']>;
    delete incomplete.pending_bids;
    await publish('auction.closed', incomplete as EventPayloads['auction.closed']);
    // A fresh, complete event after them proves the consumer moved past both.
    await publish('auction.closed', closed({ listing_title: 'Fresh news' }));
    await eventually(async () => expect(await mail(quiet)).toEqual(['sale_ended: Your listing "Fresh news" has ended']), 15_000);
  });

  it('tells a bidder the seller accepted their bid after an unsold end; an auction win is mailed from its close only', async () => {
    const bidder = await person();
    const accepted = (sale: EventPayloads['bid.accepted']['sale'], title: string): EventPayloads['bid.accepted'] => ({
      bid_id: randomUUID(),
      listing_id: randomUUID(),
      listing_title: title,
      website_url: null,
      seller_id: seller.id,
      buyer_id: bidder.id,
      amount: 2500,
      kind: 'bid',
      sale,
      accepted_at: new Date().toISOString(),
    });
    await publish('bid.accepted', accepted('auction_win', 'Won at the end'));
    await publish('bid.accepted', accepted('accepted_after_close', 'Pet care blog'));
    await eventually(async () => expect(await mail(bidder)).toEqual(['sale_won: Your bid on "Pet care blog" was accepted']), 15_000);
    expect(await body('sale_won', bidder)).toContain('the seller accepted your $2,500 bid on "Pet care blog"');
  });

  it('tells the seller of a new offer and the bidder of a declined bid or offer; events without a title are not mailed', async () => {
    const owner = await person();
    const bidder = await person();
    const listingId = randomUUID();
    const offer = { bid_id: randomUUID(), listing_id: listingId, seller_id: owner.id, bidder_id: bidder.id, amount: 4200, created_at: new Date().toISOString() };
    await publish('offer.made', offer);
    await publish('offer.made', { ...offer, bid_id: randomUUID(), listing_title: 'Sourdough recipes' });
    await publish('bid.rejected', { bid_id: randomUUID(), listing_id: listingId, bidder_id: bidder.id, amount: 4200 });
    await publish('bid.rejected', { bid_id: randomUUID(), listing_id: listingId, bidder_id: bidder.id, amount: 4100, listing_title: 'Sourdough recipes', kind: 'offer' });
    await eventually(async () => {
      expect(await mail(owner)).toEqual(['new_offer: New offer on "Sourdough recipes": $4,200']);
      expect(await mail(bidder)).toEqual(['bid_rejected: Your offer on "Sourdough recipes" was declined']);
    }, 15_000);
    expect(await body('new_offer', owner)).toContain('Accept it from My Bids to sell at this price');
    expect(await body('bid_rejected', bidder)).toContain('The seller declined your $4,100 offer on "Sourdough recipes".');
  });

  it('mails a contact message to support however late it is read from the bus', async () => {
    const support = { id: '', username: 'support', email: 'support@sitemarket.local' };
    await publish(
      'contact.received',
      {
        contact_id: randomUUID(),
        user_id: null,
        name: 'Late Larry',
        email: 'larry@example.com',
        subject: 'Account Issues',
        urgency: 'high',
        message: 'Written before an outage',
        received_at: new Date(Date.now() - 30 * 3600 * 1000).toISOString(),
      },
      { occurredAt: new Date(Date.now() - 30 * 3600 * 1000).toISOString() },
    );
    await eventually(async () => expect(await mail(support)).toContain('contact: [Contact: high] Account Issues from Late Larry'), 15_000);
  });

  it("lists the admin's latest emails newest first, past the 100th", async () => {
    const emails = notifications.get(EmailsRepository);
    for (let i = 0; i < 120; i += 1) {
      await emails.record({ jobId: `order-${i}-${randomUUID()}`, kind: 'order_check', to: `order${i}@example.com`, email: { subject: `n${i}`, text: '', html: '' }, transport: 'log', requestId: null });
    }
    const recent = await emails.recent(50);
    expect(recent.slice(0, 3).map((e) => e.subject)).toEqual(['n119', 'n118', 'n117']);
    expect(recent.map((e) => Number(e.id))).toEqual([...recent.map((e) => Number(e.id))].sort((a, b) => b - a));
  });
});
