import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RPC, type Actor } from '@market/contracts';
import { bidIncrement, minimumNextBid, NO_MAXIMUM_ON_MANUAL, NO_MAXIMUM_ON_OFFERS, replayProxyBids, type ProxyStep } from '@market/domain';
import { AppError } from '@market/server-kit';
import { testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { MAXIMUM_RAISED, OUTBID_AT_ONCE } from './bids.service';
import { EndSales } from '../sales/end-sales';
import { StandingBids } from '../sales/standing-bids';
import { openAuction, placeBidAs, useBiddingUnderTest } from '../testing/bidding-under-test';
import { placeOne } from '../testing/place-one';

describe('proxy bidding through bidding-service (ADR 0055)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;
  let auctions: AuctionsRepository;

  /** A live auction of `seller` (a random one by default) with these terms. */
  const auction = (terms: { starting_price?: number; reserve_price?: number | null; auction_type?: 'auto' | 'manual'; listing_type?: 'auction' | 'fixed'; seller_id?: string } = {}) =>
    openAuction(svc, { title: 'Travel blog', ...terms, buy_now_price: terms.listing_type === 'fixed' ? 20_000 : null });
  const bid = (who: Actor, listingId: string, amount: number, maxAmount?: number, key?: string) => placeBidAs(svc, who, listingId, amount, maxAmount, key);
  const refusal = (pending: Promise<unknown>) => pending.then(
    () => null,
    (error: unknown) => ({ status: (error as AppError).status, detail: (error as AppError).message }),
  );
  const stored = async (listingId: string) =>
    ((await ds.query('SELECT bidder_id, amount::float8 AS amount, automatic, status FROM bids WHERE listing_id = $1 ORDER BY created_at, id', [listingId])) as {
      bidder_id: string;
      amount: number;
      automatic: boolean;
      status: string;
    }[]).map((b) => [b.bidder_id, b.amount, b.automatic]);
  const events = async (listingId: string) =>
    ((await ds.query(`SELECT name, payload FROM outbox WHERE payload->>'listing_id' = $1 ORDER BY seq`, [listingId])) as { name: string; payload: Record<string, unknown> }[]);
  /** Fails when anything the public or the seller can see has a max_amount with a value, or carries one of the maximums. */
  const expectNoMaximumIn = (value: unknown, maximums: number[]) => {
    const numbers: number[] = [];
    const walk = (node: unknown): void => {
      if (typeof node === 'number') numbers.push(node);
      if (node && typeof node === 'object') {
        expect((node as { max_amount?: unknown }).max_amount ?? null).toBeNull();
        Object.values(node).forEach(walk);
      }
    };
    walk(value);
    for (const max of maximums) expect(numbers).not.toContain(max);
  };

  useBiddingUnderTest((under) => ({ svc, ds, auctions } = under));

  it('a bid below an earlier maximum is outbid at once; a maximum above it leads at one increment over it', async () => {
    const listingId = await auction();
    const [ann, bob] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    expect(await bid(ann, listingId, 100, 1234)).toMatchObject({ current_bid: 100, leading: true, max_amount: 1234, message: 'Bid placed successfully' });
    const outbid = await bid(bob, listingId, 200);
    expect(outbid).toMatchObject({ current_bid: 205, bid_count: 3, leading: false, max_amount: null, message: OUTBID_AT_ONCE, bid: { amount: 200, automatic: false } });
    const leads = await bid(bob, listingId, 215, 2000);
    expect(leads).toMatchObject({ current_bid: 1284, bid_count: 5, leading: true, max_amount: 2000, bid: { amount: 215, automatic: false } });
    expect(await stored(listingId)).toEqual([
      [ann.user_id, 100, false],
      [bob.user_id, 200, false],
      [ann.user_id, 205, true],
      [bob.user_id, 215, false],
      [bob.user_id, 1284, true],
    ]);
    // One bid.placed per bid, in order; the lead changed hands once (ann's maximum was passed), the maximums nowhere.
    const placed = (await events(listingId)).filter((e) => e.name === 'bid.placed').map((e) => e.payload);
    expect(placed.map((p) => [p.amount, p.current_bid, p.automatic, p.previous_leader_id, p.price_version])).toEqual([
      [100, 100, false, null, 1],
      [200, 200, false, null, 2],
      [205, 205, true, null, 3],
      [215, 215, false, ann.user_id, 4],
      [1284, 1284, true, null, 5],
    ]);
    expectNoMaximumIn(placed, [1234, 2000]);
  });

  it('the leader raises their own maximum without moving the price, the count or the version', async () => {
    const listingId = await auction();
    const [ann, bob] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    await bid(ann, listingId, 100, 1234);
    const before = await bid(bob, listingId, 200);
    const raised = await bid(ann, listingId, 205, 3000);
    expect(raised).toMatchObject({ message: MAXIMUM_RAISED, current_bid: 205, bid_count: 3, price_version: before.price_version, leading: true, max_amount: 3000, extended: false });
    expect(raised.bid).toMatchObject({ amount: 205, automatic: true });
    expect((await events(listingId)).length).toBe(3);
    expect(await refusal(bid(ann, listingId, 205, 3000))).toEqual({ status: 400, detail: 'Your maximum bid is already $3,000: enter a higher maximum to raise it' });
    // A bidder who does not lead cannot slip under the minimum with a maximum.
    expect(await refusal(bid(bob, listingId, 205, 5000))).toEqual({ status: 400, detail: 'Bid must be at least $210' });
    // Its maximum under the leader's, a runner-up prices the leader at their maximum at most.
    expect(await bid(bob, listingId, 210, 2999)).toMatchObject({ current_bid: 3000, leading: false });
  });

  it('the reserve: a maximum that reaches it lifts the price to it at once', async () => {
    const listingId = await auction({ reserve_price: 900 });
    const ann = await testCaller(svc.env, { role: 'regular' });
    expect(await bid(ann, listingId, 100, 1500)).toMatchObject({ current_bid: 900, bid_count: 2, leading: true });
    const last = (await events(listingId)).at(-1)?.payload;
    expect(last).toMatchObject({ amount: 900, automatic: true, reserve_met: true });
  });

  it('of equal maximums the earlier leads, and the close sells to it at that price', async () => {
    const listingId = await auction();
    const [ann, bob] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    await bid(ann, listingId, 100, 500);
    expect(await bid(bob, listingId, 500)).toMatchObject({ current_bid: 500, leading: false });
    const rows = await svc.rpc.call(RPC.bidding.userBids, {}, bob);
    expect(rows.bids.map((r) => [r.amount, r.is_winning])).toEqual([[500, false]]);
    await ds.query(`UPDATE auctions SET expires_at = now() - interval '1 second' WHERE listing_id = $1`, [listingId]);
    expect(await svc.app.get(EndSales).closeDue(listingId, new Date())).toMatchObject({ closed: true, outcome: { outcome: 'sold', amount: 500 } });
    const [winner] = await ds.query(`SELECT bidder_id, automatic FROM bids WHERE listing_id = $1 AND status = 'accepted'`, [listingId]);
    expect(winner).toEqual({ bidder_id: ann.user_id, automatic: true });
  });

  it("My Bids rows tell where their bidder stands (ADR 0060): the leader's older rows are superseded, not outbid", async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listingId = await auction({ seller_id: seller.user_id });
    const [ann, bob] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    const rows = async (who: Actor) => (await svc.rpc.call(RPC.bidding.userBids, {}, who)).bids.map((r) => [r.amount, r.is_winning, r.leading, r.latest, r.max_amount]);
    await bid(ann, listingId, 100, 1000);
    await bid(bob, listingId, 200);
    expect(await rows(ann)).toEqual([[205, true, true, true, 1000], [100, false, true, false, 1000]]);
    expect(await rows(bob)).toEqual([[200, false, false, true, null]]);
    await bid(bob, listingId, 215, 2000);
    expect(await rows(bob)).toEqual([[1050, true, true, true, 2000], [215, false, true, false, 2000], [200, false, true, false, 2000]]);
    expect(await rows(ann)).toEqual([[205, false, false, true, 1000], [100, false, false, false, 1000]]);
    // The leader raises only the maximum: no row is added, and only the leader's rows carry the new maximum.
    expect(await bid(bob, listingId, 1050, 3000)).toMatchObject({ message: MAXIMUM_RAISED, max_amount: 3000 });
    expect((await rows(bob)).map((r) => r[4])).toEqual([3000, 3000, 3000]);
    const sellerView = await svc.rpc.call(RPC.bidding.userBids, {}, seller);
    expect(sellerView.bids.map((r) => [r.amount, r.leading, r.latest, r.max_amount])).toEqual([
      [1050, true, true, null], [215, true, false, null], [205, false, true, null], [200, true, false, null], [100, false, false, null],
    ]);
    expectNoMaximumIn(sellerView, [1000, 3000]);
    expect((await rows(ann)).flat()).not.toContain(3000);
    // Sold: the winner's older rows still stand with the winner; the loser's rows lead nothing.
    await ds.query(`UPDATE auctions SET expires_at = now() - interval '1 second' WHERE listing_id = $1`, [listingId]);
    expect(await svc.app.get(EndSales).closeDue(listingId, new Date())).toMatchObject({ closed: true });
    const bobAfter = (await svc.rpc.call(RPC.bidding.userBids, {}, bob)).bids.map((r) => [r.amount, r.status, r.is_winning, r.leading, r.latest]);
    expect(bobAfter).toEqual([[1050, 'accepted', true, true, true], [215, 'rejected', false, true, false], [200, 'rejected', false, true, false]]);
    expect((await rows(ann)).map((r) => r[2])).toEqual([false, false]);
  });

  it('a maximum never shows to anyone else: history, the seller, a rival; the owner sees it on their own rows', async () => {
    const seller = await testCaller(svc.env, { role: 'regular' });
    const listingId = await auction({ seller_id: seller.user_id });
    const [ann, bob] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    await bid(ann, listingId, 100, 4321);
    await bid(bob, listingId, 300, 3333);
    const history = await svc.rpc.call(RPC.bidding.history, { listing_id: listingId }, null);
    expect(history.bids.map((b) => [b.amount, b.automatic])).toEqual([[3383, true], [300, false], [100, false]]);
    expectNoMaximumIn(history, [4321, 3333]);
    const sellerRows = await svc.rpc.call(RPC.bidding.userBids, {}, seller);
    expect(sellerRows.bids.every((r) => r.role === 'seller' && r.max_amount === null)).toBe(true);
    expect(sellerRows.bids.map((r) => r.amount)).toEqual([3383, 300, 100]);
    expectNoMaximumIn(sellerRows, [4321, 3333]);
    const annRows = await svc.rpc.call(RPC.bidding.userBids, {}, ann);
    expect(annRows.bids.map((r) => [r.amount, r.automatic, r.max_amount, r.is_winning])).toEqual([[3383, true, 4321, true], [100, false, 4321, false]]);
    const bobRows = await svc.rpc.call(RPC.bidding.userBids, {}, bob);
    expect(bobRows.bids.map((r) => [r.amount, r.max_amount])).toEqual([[300, 3333]]);
    expect(bobRows.bids.flatMap((r) => [r.amount, r.current_bid])).not.toContain(4321);
    expectNoMaximumIn((await events(listingId)).map((e) => e.payload), [4321, 3333]);
  });

  it('refuses a maximum on an offer and on a manual auction, with a clear detail', async () => {
    const ann = await testCaller(svc.env, { role: 'regular' });
    expect(await refusal(bid(ann, await auction({ listing_type: 'fixed' }), 15_000, 16_000))).toEqual({ status: 400, detail: NO_MAXIMUM_ON_OFFERS });
    const manual = await auction({ auction_type: 'manual' });
    expect(await refusal(bid(ann, manual, 100, 500))).toEqual({ status: 400, detail: NO_MAXIMUM_ON_MANUAL });
    expect(await bid(ann, manual, 100)).toMatchObject({ current_bid: 100, leading: true, max_amount: null });
  });

  it('a retried proxy bid (same Idempotency-Key) is placed once and answers the same', async () => {
    const listingId = await auction();
    const [ann, bob] = [await testCaller(svc.env, { role: 'regular' }), await testCaller(svc.env, { role: 'regular' })];
    await bid(ann, listingId, 100, 800);
    const key = randomUUID();
    const first = await bid(bob, listingId, 150, 600, key);
    expect(await bid(bob, listingId, 150, 600, key)).toEqual(first);
    expect(await stored(listingId)).toEqual([[ann.user_id, 100, false], [bob.user_id, 150, false], [ann.user_id, 605, true]]);
    expect((await refusal(bid(bob, listingId, 150, 700, key)))?.status).toBe(422);
  });

  it("a suspended leader's bids leave and the remaining maximums reprice the auction", async () => {
    const listingId = await auction();
    const [ann, bob, cat] = [randomUUID(), randomUUID(), randomUUID()];
    const place = (who: string, amount: number, max: number | null) => placeOne(auctions, listingId, { id: who, name: 'x' }, amount, new Date(), 0, max);
    await place(bob, 100, 300);
    await place(cat, 150, 200);
    await place(ann, 400, 1000);
    const standing = svc.app.get(StandingBids);
    await standing.recordMember(ann, 'suspended', new Date());
    await standing.sweepMember(ann, new Date());
    expect(await auctions.findAuction(listingId)).toMatchObject({ current_bid: 205 });
    const next = await place(cat, 210, null);
    expect(next?.decision).toMatchObject({ accepted: true, leading: false, current_bid: 215 });
  });

  it('concurrent bids with maximums end in the state the reference model computes from them in commit order', async () => {
    const listingId = await auction({ starting_price: 500, reserve_price: 2600 });
    // Plain bids come from bidders other than the maximums' holders: a round whose one taken bid is the leader raising
    // their own bid would draw no automatic answer.
    const [holders, plain] = [0, 1].map(() => Array.from({ length: 10 }, () => randomUUID()));
    const steps: { step: ProxyStep; version: number; round: number }[] = [];
    const round = (bidders: string[], maxOf: (i: number) => number | null, index: number) =>
      Promise.all(
        bidders.map(async (bidder, i) => {
          const seen = await auctions.findAuction(listingId);
          const minimum = minimumNextBid(seen!.starting_price, seen!.current_bid);
          const amount = minimum + (i % 4) * bidIncrement(minimum);
          const max = maxOf(i);
          const placed = await placeOne(auctions, listingId, { id: bidder, name: 'x' }, amount, new Date(), 0, max === null ? null : Math.max(amount, max));
          if (placed?.decision.accepted) steps.push({ step: { kind: 'bid', bidder_id: bidder, amount, max_amount: max === null ? null : Math.max(amount, max) }, version: placed.price_version!, round: index });
        }),
      );
    // Maximums first (some equal, to race ties), then plain bids over whatever the first round left.
    await round(holders, (i) => 1000 + (i % 5) * 500, 1);
    await round(plain, () => null, 2);
    const ordered = steps.sort((a, b) => a.version - b.version).map((s) => s.step);
    // Both rounds raced: each took bids, others were refused under the lock, and maximums answered some. (How many each
    // round takes depends on which bid commits first: when it is the highest of the round, it alone is taken.)
    expect([1, 2].map((index) => steps.filter((s) => s.round === index).length > 0)).toEqual([true, true]);
    expect(ordered.length).toBeLessThan(holders.length + plain.length);
    expect((await ds.query('SELECT 1 FROM bids WHERE listing_id = $1 AND automatic', [listingId])).length).toBeGreaterThan(0);
    const reference = replayProxyBids({ starting_price: 500, reserve_price: 2600 }, ordered);
    expect(reference.accepted.every(Boolean)).toBe(true);
    const after = await auctions.findAuction(listingId);
    const [top] = await ds.query(
      `SELECT bidder_id FROM auction_maximums WHERE listing_id = $1 ORDER BY max_amount DESC, set_at ASC LIMIT 1`,
      [listingId],
    );
    expect([after?.current_bid, top.bidder_id]).toEqual([reference.price, reference.leader_id]);
    expect(after?.bid_count).toBe((await stored(listingId)).length);
  });
});
