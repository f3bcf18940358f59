import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { type Actor, type PlaceBidResponse } from '@market/contracts';
import { minimumNextBid, replayProxyBids, type ProxyStep } from '@market/domain';
import { AppError } from '@market/server-kit';
import { testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { AuctionsRepository } from '../auctions/auctions.repository';
import type { QueuedBid } from './queued-bid';
import type { PlacedBid } from '../auctions/auction.records';
import type { SequencedBatch } from './keyed-sequencer';
import { BID_TOO_LATE, BIDS_RETRY_AFTER_SECONDS, lateBid } from './bid-queue';
import { openAuction, placeBidAs, useBiddingUnderTest } from '../testing/bidding-under-test';
import { placeOne } from '../testing/place-one';
import { PlaceBids } from './place-bids';

const HOUR = 3600_000;
const START = 100;

/**
 * Bids decided in batches per listing (ADR 0058): concurrent bids on one auction, and the same sequence decided as one
 * batch and one by one giving the same stored bids, auction, events and maximums.
 */
describe('bids decided in batches per listing (ADR 0058)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let auctions: AuctionsRepository;

  const auction = (terms: { reserve_price?: number | null; expires_in?: number } = {}) =>
    openAuction(svc, { title: 'Recipe site', starting_price: START, reserve_price: terms.reserve_price ?? null, expires_at: new Date(Date.now() + (terms.expires_in ?? 24 * HOUR)).toISOString() });
  const bid = (who: Actor, listingId: string, amount: number, maxAmount?: number) => placeBidAs(svc, who, listingId, amount, maxAmount);
  const settle = (pending: Promise<PlaceBidResponse>) =>
    pending.then(
      (ok) => ({ ok, status: 201 }),
      (error: AppError) => ({ ok: null, status: error.status, detail: error.message }),
    );
  const storedBids = async (listingId: string) =>
    (await ds.query('SELECT id, bidder_id, amount::float8 AS amount, automatic, status, xmin::text AS tx FROM bids WHERE listing_id = $1 ORDER BY created_at, id', [listingId])) as {
      id: string;
      bidder_id: string;
      amount: number;
      automatic: boolean;
      status: string;
      tx: string;
    }[];
  const auctionRow = async (listingId: string) =>
    (await ds.query('SELECT current_bid::float8 AS current_bid, bid_count, price_version, expires_at FROM auctions WHERE listing_id = $1', [listingId]))[0];
  const placedEvents = async (listingId: string) =>
    ((await ds.query(`SELECT payload FROM outbox WHERE name = 'bid.placed' AND payload->>'listing_id' = $1 ORDER BY seq`, [listingId])) as { payload: Record<string, unknown> }[]).map(
      (row) => row.payload,
    );
  const maximums = async (listingId: string) =>
    (await ds.query(
      'SELECT bidder_id, max_amount::float8 AS max_amount, proxy, bidder_name FROM auction_maximums WHERE listing_id = $1 ORDER BY max_amount DESC, set_at ASC',
      [listingId],
    )) as unknown[];

  /** Every 2xx bid is stored; the stored bids never fall; price and count are theirs. */
  const expectConsistent = async (listingId: string, acceptedIds: string[], strictly: boolean) => {
    const stored = await storedBids(listingId);
    const ids = new Set(stored.map((b) => b.id));
    for (const id of acceptedIds) expect(ids.has(id)).toBe(true);
    for (let i = 1; i < stored.length; i += 1) {
      if (strictly) expect(stored[i].amount).toBeGreaterThan(stored[i - 1].amount);
      else expect(stored[i].amount).toBeGreaterThanOrEqual(stored[i - 1].amount);
    }
    expect(await auctionRow(listingId)).toMatchObject({ current_bid: stored.at(-1)!.amount, bid_count: stored.length, price_version: stored.length });
    return stored;
  };

  useBiddingUnderTest((under) => ({ svc, ds, auctions } = under));

  it('takes concurrent bids on one auction in batches: every answered bid stored, bids strictly rising, price and count theirs', async () => {
    const listingId = await auction();
    const bidders = await Promise.all(Array.from({ length: 40 }, () => testCaller(svc.env, { role: 'regular' })));
    const accepted: string[] = [];
    let floor = START;
    for (let round = 0; round < 3; round += 1) {
      // Everyone bids at once, each a different amount over what the last round left.
      const answers = await Promise.all(bidders.map((who, i) => settle(bid(who, listingId, floor + 5 * (1 + ((i * 7) % 40))))));
      expect(answers.filter((a) => a.status !== 201 && a.status !== 400)).toEqual([]);
      for (const a of answers) if (a.ok) accepted.push(a.ok.bid.id);
      expect(answers.some((a) => a.ok)).toBe(true);
      floor = Math.max(...answers.flatMap((a) => (a.ok?.current_bid ? [a.ok.current_bid] : [floor])));
    }
    const stored = await expectConsistent(listingId, accepted, true);
    expect(stored).toHaveLength(accepted.length);
    // Several bids were decided in one transaction: the batches did form.
    expect(new Set(stored.map((b) => b.tx)).size).toBeLessThan(stored.length);
  });

  it('respects the proxy rule under concurrent bids: price and leader are what the reference model finds for the stored order', async () => {
    const listingId = await auction({ reserve_price: 1_500 });
    const holders = await Promise.all(Array.from({ length: 3 }, () => testCaller(svc.env, { role: 'regular' })));
    const steps: ProxyStep[] = [];
    let price: number | null = null;
    // Maximums of $2,000 and two of $2,600 (a tie: the earlier leads), set one after another before the storm.
    for (const [i, who] of holders.entries()) {
      const max = [2_000, 2_600, 2_600][i];
      const amount = minimumNextBid(START, price);
      price = (await bid(who, listingId, amount, max)).current_bid;
      steps.push({ kind: 'bid', bidder_id: who.user_id, amount, max_amount: max });
    }
    expect(price).toBe(2_600);
    const bidders = await Promise.all(Array.from({ length: 30 }, () => testCaller(svc.env, { role: 'regular' })));
    const answers = await Promise.all(bidders.map((who, i) => settle(bid(who, listingId, 2_650 + 50 * (i % 8)))));
    expect(answers.filter((a) => a.status !== 201 && a.status !== 400)).toEqual([]);
    const stored = await expectConsistent(listingId, answers.flatMap((a) => (a.ok ? [a.ok.bid.id] : [])), false);
    // The typed bids of the storm, in the order they were decided, replayed from scratch.
    const typed = stored.filter((b) => !b.automatic).slice(holders.length);
    for (const b of typed) steps.push({ kind: 'bid', bidder_id: b.bidder_id, amount: b.amount, max_amount: null });
    const replay = replayProxyBids({ starting_price: START, reserve_price: 1_500 }, steps);
    expect(replay.accepted.every(Boolean)).toBe(true);
    expect((await auctionRow(listingId)).current_bid).toBe(replay.price);
    expect((await maximums(listingId))[0]).toMatchObject({ bidder_id: replay.leader_id });
  });

  /** A batch the test hands over whole: every attempt taken, nothing given back, no lock-time cap. */
  const wholeBatch = (items: QueuedBid[]): SequencedBatch<QueuedBid> => {
    const queue = [...items];
    return { locked: () => undefined, take: () => queue.shift(), overLockTime: () => false, giveBack: (back) => queue.unshift(...back) };
  };
  const answerOf = (placed: PlacedBid | null) =>
    placed && {
      decision: placed.decision,
      bid: placed.bid && [placed.bid.bidder_id, placed.bid.amount, placed.bid.automatic],
      recorded: placed.recorded.map((b) => [b.bidder_id, b.amount, b.automatic]),
      price_version: placed.decision.accepted ? placed.price_version : undefined,
      max_amount: placed.max_amount,
    };
  const withoutIds = (payload: Record<string, unknown>) => {
    const { bid_id: _id, listing_id: _listing, created_at: _at, seller_id: _seller, ...rest } = payload;
    return rest;
  };

  it('decides a sequence as one batch exactly as one bid at a time: answers, bids, auction, events and maximums', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, () => testCaller(svc.env, { role: 'regular' })));
    // One of them was suspended: every one of their bids is refused in either path.
    await ds.query(`INSERT INTO member_states (user_id, status, changed_at) VALUES ($1, 'suspended', now())`, [people[4].user_id]);
    const step = fc.record({
      who: fc.integer({ min: 0, max: 4 }),
      kind: fc.constantFrom('raise', 'raise', 'low', 'same'),
      steps: fc.integer({ min: 0, max: 40 }),
      max: fc.option(fc.integer({ min: 0, max: 20 }).map((k) => k * 100), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), fc.option(fc.constantFrom(800, 1_600), { nil: null }), async (plan, reserve) => {
        // Five minutes left and ten minutes of soft close: the first bid that moves the price extends the end (D9).
        const [batched, single] = [await auction({ reserve_price: reserve, expires_in: 300_000 }), await auction({ reserve_price: reserve, expires_in: 300_000 })];
        await ds.query('UPDATE auctions SET expires_at = (SELECT expires_at FROM auctions WHERE listing_id = $1) WHERE listing_id = $2', [batched, single]);
        const base = Date.now();
        let level = START;
        const attempts: QueuedBid[] = plan.map((p, i) => {
          if (p.kind === 'raise') level += 5 * p.steps;
          const amount = p.kind === 'low' ? START : level;
          return {
            bidder: { id: people[p.who].user_id, name: `bidder${p.who}` },
            amount,
            max_amount: p.max === null ? null : amount + p.max,
            now: new Date(base + i * 1_000),
            anti_sniping_minutes: 10,
            request_id: null,
            traceparent: null,
          };
        });
        const outcomes = await new PlaceBids(auctions).placeBatch(batched, wholeBatch(attempts));
        const fromBatch = outcomes.map((o) => ('ok' in o ? answerOf(o.ok) : o.error));
        const oneByOne = [];
        for (const a of attempts) oneByOne.push(answerOf(await placeOne(auctions, single, a.bidder, a.amount, a.now, a.anti_sniping_minutes, a.max_amount)));
        expect(fromBatch).toEqual(oneByOne);
        const strip = (rows: Awaited<ReturnType<typeof storedBids>>) => rows.map((b) => [b.bidder_id, b.amount, b.automatic, b.status]);
        expect(strip(await storedBids(batched))).toEqual(strip(await storedBids(single)));
        expect(await auctionRow(batched)).toEqual(await auctionRow(single));
        expect((await placedEvents(batched)).map(withoutIds)).toEqual((await placedEvents(single)).map(withoutIds));
        expect(await maximums(batched)).toEqual(await maximums(single));
        // The whole batch was one transaction.
        expect(new Set((await storedBids(batched)).map((b) => b.tx)).size).toBeLessThanOrEqual(1);
      }),
      { numRuns: 50 },
    );
  }, 120_000);

  it('refuses, and never stores, a bid whose caller stops waiting before its batch could commit; the others are decided', async () => {
    const listingId = await auction();
    const [early, patient] = await Promise.all([testCaller(svc.env, { role: 'regular' }), testCaller(svc.env, { role: 'regular' })]);
    const queued = (who: Actor, amount: number, deadline: number | null): QueuedBid => ({
      bidder: { id: who.user_id, name: 'someone' },
      amount,
      max_amount: null,
      now: new Date(),
      anti_sniping_minutes: 10,
      request_id: null,
      traceparent: null,
      deadline,
    });
    // The first caller's deadline is within one lock time of now: its gateway would answer 503 before the commit.
    const outcomes = await new PlaceBids(auctions).placeBatch(
      listingId,
      wholeBatch([queued(early, START, Date.now() + 50), queued(patient, START, Date.now() + 60_000)]),
      (q) => lateBid(q, 100),
    );
    expect(outcomes[0]).toEqual({ error: expect.objectContaining({ status: 503, message: BID_TOO_LATE, retryAfter: BIDS_RETRY_AFTER_SECONDS }) });
    expect(outcomes[1]).toMatchObject({ ok: { decision: { accepted: true }, bid: { bidder_id: patient.user_id, amount: START } } });
    expect((await storedBids(listingId)).map((b) => b.bidder_id)).toEqual([patient.user_id]);
    expect(await auctionRow(listingId)).toMatchObject({ current_bid: START, bid_count: 1 });
  });
});
