import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { DEFAULT_SETTINGS, RPC, type EventEnvelope, type EventPayloads } from '@market/contracts';
import { parseEnvOrThrow } from '@market/server-kit';
import { eventually, publishSignedEvent, respondSigned, startServiceUnderTest, type ServiceUnderTest, openRequest } from '@market/server-kit/testing';
import { notificationsAppModule } from '../app.module';
import { notificationsEnv } from '../notifications.config';
import { EMAIL_QUEUE, EmailQueue } from './email.queue';
import { Mailer } from './mailer';
import { BidNoticesRepository, DigestNotCommittedError } from './bid-notices.repository';

const DIGEST_MS = 4_000;
const request = JSONCodec<{ id: string; data: { data: { user_ids?: string[] } } }>();

/**
 * The bid emails of ADR 0056 on a real bus, database and queue: outbid emails throttled per listing and person
 * (60 s here, so nothing repeats during the test), the seller's digest mailed at the end of its window (4 s here).
 */
describe('bid emails: outbid throttle and seller digest (ADR 0056)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let nc: NatsConnection;
  const versions = new Map<string, number>();

  const address = (userId: string) => `${userId}@example.com`;
  const mail = async (userId: string, kind: string): Promise<{ job_id: string; subject: string; text_body: string }[]> =>
    ds.query('SELECT job_id, subject, text_body FROM emails WHERE to_address = $1 AND kind = $2 ORDER BY id', [address(userId), kind]);
  // Publishes an event twice under two message ids, as a relay retrying after a crash would: the copy must change nothing.
  const publish = async (payload: EventPayloads['bid.placed']): Promise<string> => {
    const envelope: EventEnvelope<'bid.placed'> = { id: randomUUID(), name: 'bid.placed', occurred_at: new Date().toISOString(), request_id: null, payload };
    for (let copy = 0; copy < 2; copy += 1) {
      await publishSignedEvent(nc, svc.env, envelope, { msgID: randomUUID() });
    }
    return envelope.id;
  };
  const bid = (listing: { id: string; seller: string; title: string }, bidder: string, price: number, previous: string | null, automatic = false): EventPayloads['bid.placed'] => {
    const version = (versions.get(listing.id) ?? 0) + 1;
    versions.set(listing.id, version);
    return {
      bid_id: randomUUID(),
      listing_id: listing.id,
      bidder_id: bidder,
      bidder_name: `user_${bidder.slice(0, 8)}`,
      amount: price,
      current_bid: price,
      bid_count: version,
      reserve_met: price >= 2_000,
      expires_at: '2030-01-01T00:00:00.000Z',
      extended: false,
      created_at: new Date().toISOString(),
      seller_id: listing.seller,
      listing_title: listing.title,
      previous_leader_id: previous,
      price_version: version,
      automatic,
    };
  };
  const listing = (title: string) => ({ id: randomUUID(), seller: randomUUID(), title });
  // The one bid.placed consumer applies events in order: once a later bid's outbid email is queued and sent, every bid
  // published before it has been applied (and any email of theirs queued).
  const marker = async () => {
    const outbid = randomUUID();
    await publish(bid(listing('Marker'), randomUUID(), 100, outbid));
    await eventually(async () => expect(await mail(outbid, 'outbid')).toHaveLength(1), 15_000);
  };

  beforeAll(async () => {
    svc = await startServiceUnderTest(
      'notifications-service',
      (env) => {
        const config = parseEnvOrThrow(notificationsEnv, env);
        return { module: notificationsAppModule(config), config };
      },
      { OUTBID_EMAIL_INTERVAL_MS: '60000', SELLER_BID_DIGEST_INTERVAL_MS: String(DIGEST_MS), PUBLIC_URL: 'https://market.example' },
    );
    ds = svc.app.get(DataSource);
    // Stands in for auth-service (every user is a live member, but those whose id starts with "gone-") and for
    // admin-service's settings (no SMTP: emails are written to the log and kept).
    nc = await connect({ servers: svc.env.NATS_URL });
    nc.subscribe(`${svc.env.NATS_SUBJECT_PREFIX}${RPC.auth.contacts.subject}`, {
      callback: (_error, message) => {
        const packet = request.decode(openRequest(svc.env, 'auth-service', message));
        const contacts = (packet.data.data.user_ids ?? [])
          .filter((id) => !id.startsWith('gone-'))
          .map((id) => ({ id, username: `user_${id.slice(0, 8)}`, email: address(id), status: 'active' }));
        respondSigned(svc.env, 'auth-service', message, { id: packet.id, response: { contacts }, isDisposed: true });
      },
    });
    nc.subscribe(`${svc.env.NATS_SUBJECT_PREFIX}${RPC.admin.effectiveSettings.subject}`, {
      callback: (_error, message) => respondSigned(svc.env, 'admin-service', message, { id: request.decode(openRequest(svc.env, 'admin-service', message)).id, response: DEFAULT_SETTINGS, isDisposed: true }),
    });
    await nc.flush();
  });
  afterAll(async () => {
    await nc?.close();
    await svc?.stop();
  });

  it('ten bids in a minute: one outbid email per person outbid, one digest of the ten after the window, nothing twice', async () => {
    const auction = listing('Cooking blog');
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    // A holds a maximum; B and C bid under it (automatic answers keep A ahead, nobody is outbid) until B passes it.
    const ids = [
      await publish(bid(auction, a, 1_000, null)),
      await publish(bid(auction, b, 1_050, null)),
      await publish(bid(auction, a, 1_100, null, true)),
      await publish(bid(auction, b, 1_600, a)),
      await publish(bid(auction, c, 1_650, null)),
      await publish(bid(auction, b, 1_700, null, true)),
      await publish(bid(auction, a, 2_100, b)),
      await publish(bid(auction, c, 2_150, null)),
      await publish(bid(auction, a, 2_200, null, true)),
      // A is outbid a second time within the minute: no second email.
      await publish(bid(auction, c, 3_100, a)),
    ];
    await marker();

    await eventually(async () => {
      expect((await mail(a, 'outbid')).map((m) => m.job_id)).toEqual([`outbid-${ids[3]}`]);
      expect((await mail(b, 'outbid')).map((m) => m.job_id)).toEqual([`outbid-${ids[6]}`]);
    }, 15_000);
    expect(await mail(c, 'outbid')).toEqual([]);
    // Suppressed: nothing was even queued.
    expect(await svc.app.get(EmailQueue).jobState(`outbid-${ids[9]}`)).toBe('unknown');
    const [toA] = await mail(a, 'outbid');
    expect(toA.subject).toBe('You\'ve been outbid on "Cooking blog"');
    expect(toA.text_body).toContain('The current price is $1,600.');
    expect(toA.text_body).toContain(`https://market.example/listing/${auction.id}`);

    // The seller hears nothing per bid: one digest, opened by the first bid, sent once its window ended.
    const digests = await eventually(async () => {
      const rows = await mail(auction.seller, 'bid_digest');
      expect(rows).toHaveLength(1);
      return rows;
    }, 15_000);
    expect(digests[0].job_id).toBe(`bid_digest-${ids[0]}`);
    expect(digests[0].subject).toBe('10 new bids on "Cooking blog": now $3,100');
    expect(digests[0].text_body).toContain('received 10 new bids (3 placed automatically up to bidders\' maximums) between');
    expect(digests[0].text_body).toContain('The current bid is $3,100, with 10 bids in all. It meets your reserve.');
    const windows: { bids: number; closed: boolean; on_time: boolean }[] = await ds.query(
      `SELECT d.bids, d.closed_at IS NOT NULL AS closed, e.sent_at >= d.due_at AS on_time
       FROM bid_digests d JOIN emails e ON e.job_id = 'bid_digest-' || d.id WHERE d.listing_id = $1`,
      [auction.id],
    );
    // Every bid is in the one window (so no other digest can follow), and it went at the end of the window.
    expect(windows).toEqual([{ bids: 10, closed: true, on_time: true }]);
  });

  it('throttles each listing apart, opens the next digest after one is sent, and drops a digest nobody can receive', async () => {
    const [first, second] = [listing('Travel site'), listing('Pet blog')];
    const orphan = { ...listing('Seller gone'), seller: `gone-${randomUUID()}` };
    const [a, b] = [randomUUID(), randomUUID()];
    await publish(bid(first, a, 500, null));
    await publish(bid(first, b, 600, a));
    // Outbid on another listing within the minute: its own email.
    await publish(bid(second, a, 700, null));
    await publish(bid(second, b, 800, a));
    await publish(bid(orphan, a, 900, null));
    await marker();
    await eventually(async () => expect((await mail(a, 'outbid')).map((m) => m.subject).sort()).toEqual(['You\'ve been outbid on "Pet blog"', 'You\'ve been outbid on "Travel site"']), 15_000);
    expect(await ds.query('SELECT id FROM bid_digests WHERE listing_id = $1', [orphan.id])).toEqual([]);

    await eventually(async () => expect(await mail(first.seller, 'bid_digest')).toHaveLength(1), 15_000);
    // A bid after the digest went opens the next window, mailed at its own end.
    await publish(bid(first, a, 1_000, b));
    await eventually(async () => {
      expect((await mail(first.seller, 'bid_digest')).map((m) => m.subject)).toEqual(['2 new bids on "Travel site": now $600', 'A new bid on "Travel site": now $1,000']);
      expect(await mail(b, 'outbid')).toHaveLength(1);
    }, 15_000);
  });

  it('a digest job run again after its email went sends nothing', async () => {
    const auction = listing('Recipes');
    const opening = await publish(bid(auction, randomUUID(), 250, null));
    const key = `bid_digest-${opening}`;
    await eventually(async () => expect(await mail(auction.seller, 'bid_digest')).toHaveLength(1), 15_000);
    await eventually(async () => expect(await svc.app.get(EmailQueue).jobState(key)).toBe('completed'));
    const send = jest.spyOn(svc.app.get(Mailer), 'send');
    const redis = new Redis(svc.env.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(EMAIL_QUEUE, { connection: redis, prefix: svc.env.QUEUE_PREFIX });
    try {
      // As if Redis had lost the finished job and the same job ran again.
      await (await queue.getJob(key))?.remove();
      await svc.app.get(EmailQueue).enqueue(key, { kind: 'bid_digest', digest_id: opening, listing_id: auction.id, to: `${auction.seller}@example.com`, username: 'seller' });
      await eventually(async () => expect(await svc.app.get(EmailQueue).jobState(key)).toBe('completed'), 15_000);
      expect(send.mock.calls.filter(([to]) => to === address(auction.seller))).toEqual([]);
      expect(await mail(auction.seller, 'bid_digest')).toHaveLength(1);
    } finally {
      send.mockRestore();
      await queue.close();
      redis.disconnect();
    }
  });

  it('a bid joining a digest whose job Redis lost, well past its time, queues it again', async () => {
    const auction = listing('Lost job');
    const opening = await publish(bid(auction, randomUUID(), 400, null));
    const key = `bid_digest-${opening}`;
    const redis = new Redis(svc.env.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(EMAIL_QUEUE, { connection: redis, prefix: svc.env.QUEUE_PREFIX });
    try {
      // The job is queued inside the event's transaction: wait for the digest to be committed before aging it.
      await eventually(async () => expect(await ds.query('SELECT id FROM bid_digests WHERE id = $1', [opening])).toHaveLength(1));
      await (await queue.getJob(key))?.remove();
      await ds.query(`UPDATE bid_digests SET due_at = now() - interval '2 minutes' WHERE id = $1`, [opening]);
      await publish(bid(auction, randomUUID(), 450, null));
      await eventually(async () => expect((await mail(auction.seller, 'bid_digest')).map((m) => m.subject)).toEqual(['2 new bids on "Lost job": now $450']), 15_000);
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });

  it('racing outbid claims send one; a digest closing waits for a bid joining it, and a later bid opens the next', async () => {
    const notices = svc.app.get(BidNoticesRepository);
    const [listingId, userId] = [randomUUID(), randomUUID()];
    const claims = await Promise.all(Array.from({ length: 6 }, () => ds.transaction((m) => notices.claimOutbid(m, listingId, userId, 60_000))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await ds.transaction((m) => notices.claimOutbid(m, listingId, userId, 0))).toBe(true);

    const auction = listing('Race');
    const [first, joined, next] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await ds.transaction((m) => notices.addToDigest(m, first, bid(auction, randomUUID(), 100, null), 60_000))).toEqual({ id: first, opened: true, overdue: false });
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      expect(await notices.addToDigest(runner.manager, joined, bid(auction, randomUUID(), 200, null), 60_000)).toEqual({ id: first, opened: false, overdue: false });
      // The joining bid holds the digest's row until it commits: the close must count it.
      const closing = notices.closeDigest(first);
      await eventually(async () => {
        const waiting: unknown[] = await ds.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE bid_digests%'`);
        expect(waiting).toHaveLength(1);
      });
      await runner.commitTransaction();
      expect(await closing).toMatchObject({ id: first, bids: 2, current_bid: 200, bid_count: 2 });
    } finally {
      await runner.release();
    }
    expect(await ds.transaction((m) => notices.addToDigest(m, next, bid(auction, randomUUID(), 300, null), 60_000))).toEqual({ id: next, opened: true, overdue: false });
    // Closing again (a retried job) answers the same digest.
    expect(await notices.closeDigest(first)).toMatchObject({ id: first, bids: 2 });
  });

  it('a digest job that runs before its event is applied retries; once the event is applied elsewhere it has nothing to send', async () => {
    const notices = svc.app.get(BidNoticesRepository);
    const id = randomUUID();
    await expect(notices.closeDigest(id)).rejects.toBeInstanceOf(DigestNotCommittedError);
    await ds.query('INSERT INTO processed_events (event_id, consumer) VALUES ($1, $2)', [id, 'notifications-service']);
    expect(await notices.closeDigest(id)).toBeNull();
  });
});
