import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { BUYING_HOLD_MESSAGE } from '@market/domain';
import { AppError } from '@market/server-kit';
import { testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { BARRED } from '../auctions/bidding.policy';
import type { QueuedBid } from './queued-bid';
import type { SequencedBatch } from './keyed-sequencer';
import { startTransactionWith } from '../auctions/bounded-transaction';
import { openAuction, placeBidAs, useBiddingUnderTest } from '../testing/bidding-under-test';
import { PlaceBids } from './place-bids';

const DAY = 24 * 3600_000;

/**
 * Who may bid is read with each batch under its lock (ADR 0062): a member on a buying hold (ADR 0043) or removed by
 * moderation (ADR 0038) is refused there, a hold also early. The unlocked auction reads of one turn of the event loop share a statement, and
 * a transaction opens with its lock timeout in one round trip.
 */
describe('bid admission, shared auction reads and one-trip transactions (ADR 0062)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let auctions: AuctionsRepository;

  useBiddingUnderTest((under) => ({ svc, ds, auctions } = under));

  const strike = (who: Actor, daysAgo: number, lifted = false) =>
    ds.query(`INSERT INTO buyer_strikes (invoice_id, buyer_id, listing_id, bid_id, struck_at, lifted_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      randomUUID(),
      who.user_id,
      randomUUID(),
      randomUUID(),
      new Date(Date.now() - daysAgo * DAY),
      lifted ? new Date() : null,
    ]);
  const outcome = (pending: Promise<unknown>) =>
    pending.then(
      () => ({ status: 201, detail: null }),
      (error: AppError) => ({ status: error.status, detail: error.message }),
    );

  it('answers a member on hold 403 and one removed by moderation 400; lifted, old or single strikes hold nobody', async () => {
    const listingId = await openAuction(svc, { starting_price: 100 });
    const [held, suspended, liftedTwice, oldTwice, onceOnly] = await Promise.all(Array.from({ length: 5 }, () => testCaller(svc.env, { role: 'regular' })));
    await Promise.all([strike(held, 1), strike(held, 30), strike(liftedTwice, 1, true), strike(liftedTwice, 2, true), strike(oldTwice, 91), strike(oldTwice, 100), strike(onceOnly, 3)]);
    await ds.query(`INSERT INTO member_states (user_id, status, changed_at) VALUES ($1, 'suspended', now())`, [suspended.user_id]);

    const answers = [];
    for (const [i, who] of [held, suspended, liftedTwice, oldTwice, onceOnly].entries()) answers.push(await outcome(placeBidAs(svc, who, listingId, 100 * (i + 1))));

    expect(answers).toEqual([
      { status: 403, detail: BUYING_HOLD_MESSAGE },
      { status: 400, detail: BARRED },
      { status: 201, detail: null },
      { status: 201, detail: null },
      { status: 201, detail: null },
    ]);
    const bidders = (await ds.query(`SELECT DISTINCT bidder_id FROM bids WHERE listing_id = $1`, [listingId])) as { bidder_id: string }[];
    expect(new Set(bidders.map((b) => b.bidder_id))).toEqual(new Set([liftedTwice.user_id, oldTwice.user_id, onceOnly.user_id]));
  });

  it('decides the hold under the lock: a batch refuses a member put on hold after the early check, and places the others', async () => {
    const listingId = await openAuction(svc, { starting_price: 100 });
    const [held, suspended, first, second] = await Promise.all(Array.from({ length: 4 }, () => testCaller(svc.env, { role: 'regular' })));
    await Promise.all([strike(held, 1), strike(held, 2)]);
    await ds.query(`INSERT INTO member_states (user_id, status, changed_at) VALUES ($1, 'suspended', now())`, [suspended.user_id]);
    const queued = (who: Actor, amount: number): QueuedBid => ({
      bidder: { id: who.user_id, name: 'someone' },
      amount,
      max_amount: amount + 100,
      now: new Date(),
      anti_sniping_minutes: 10,
      request_id: null,
      traceparent: null,
    });
    const items = [queued(first, 100), queued(held, 200), queued(suspended, 300), queued(second, 400)];
    const batch: SequencedBatch<QueuedBid> = { locked: () => undefined, take: () => items.shift(), overLockTime: () => false, giveBack: (back) => items.unshift(...back) };

    const outcomes = await new PlaceBids(auctions).placeBatch(listingId, batch);

    const answer = (o: (typeof outcomes)[number]) => {
      const decision = 'ok' in o ? o.ok?.decision : undefined;
      return !decision ? 'error' : decision.accepted ? 'placed' : decision.reason;
    };
    expect(outcomes.map(answer)).toEqual(['placed', BUYING_HOLD_MESSAGE, BARRED, 'placed']);
    const stored = (await ds.query(`SELECT bidder_id FROM bids WHERE listing_id = $1 AND NOT automatic ORDER BY created_at`, [listingId])) as { bidder_id: string }[];
    expect(stored.map((b) => b.bidder_id)).toEqual([first.user_id, second.user_id]);
    const maximums = (await ds.query(`SELECT bidder_id FROM auction_maximums WHERE listing_id = $1`, [listingId])) as { bidder_id: string }[];
    expect(new Set(maximums.map((m) => m.bidder_id))).toEqual(new Set([first.user_id, second.user_id]));
  });

  it('answers the reads of one turn with one statement, each its own auction; an unknown or malformed id is none and fails no other', async () => {
    const [first, second] = [await openAuction(svc, { starting_price: 300 }), await openAuction(svc, { starting_price: 700 })];
    const query = jest.spyOn(ds, 'query');
    try {
      const read = await Promise.all([first, second, first.toUpperCase(), randomUUID(), 'not-a-listing'].map((id) => auctions.findAuction(id)));
      expect(read.map((auction) => auction?.starting_price ?? null)).toEqual([300, 700, 300, null, null]);
      expect(query.mock.calls.filter(([sql]) => String(sql).includes('FROM auctions WHERE listing_id = ANY'))).toHaveLength(1);
    } finally {
      query.mockRestore();
    }
    // A read asked after a change committed sees it.
    await ds.query('UPDATE auctions SET current_bid = 750 WHERE listing_id = $1', [second]);
    expect(await auctions.findAuction(second)).toMatchObject({ current_bid: 750 });
  });

  it('opens a transaction with its setting in one trip, and leaves no transaction behind when the setting fails', async () => {
    const runner = ds.createQueryRunner();
    try {
      await startTransactionWith(runner, `SET LOCAL lock_timeout = '1234ms'`);
      expect(runner.isTransactionActive).toBe(true);
      expect(await runner.query('SHOW lock_timeout')).toEqual([{ lock_timeout: '1234ms' }]);
      await runner.commitTransaction();
      expect(runner.isTransactionActive).toBe(false);
      expect(await runner.query('SHOW lock_timeout')).not.toEqual([{ lock_timeout: '1234ms' }]);

      await expect(startTransactionWith(runner, 'SELECT 1 / 0')).rejects.toThrow(/division by zero/);
      expect(runner.isTransactionActive).toBe(false);
      // An aborted transaction left open would refuse every statement on this connection.
      expect(await runner.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await runner.release();
    }
  });
});
