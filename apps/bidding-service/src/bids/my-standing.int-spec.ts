import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RPC, type Actor, type MyStanding } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { openAuction, placeBidAs, startBiddingUnderTest } from '../testing/bidding-under-test';

describe("bidding.my_standing: the caller's own standing on one listing (ADR 0060)", () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;

  const auction = () => openAuction(svc, { title: 'Travel blog' });
  const bid = (who: Actor, listingId: string, amount: number, maxAmount?: number) => placeBidAs(svc, who, listingId, amount, maxAmount);
  const standing = (who: Actor | null, listingId: string): Promise<MyStanding> => svc.rpc.call(RPC.bidding.myStanding, { listing_id: listingId }, who);
  const none = (listingId: string): MyStanding => ({ listing_id: listingId, has_bid: false, leading: false, max_amount: null, max_passed: false });

  beforeAll(async () => {
    svc = await startBiddingUnderTest();
    ds = svc.app.get(DataSource);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('tells each bidder only their own lead and maximum, and when their maximum was passed', async () => {
    const listingId = await auction();
    const [ann, bob, carol] = await Promise.all([1, 2, 3].map(() => testCaller(svc.env, { role: 'regular' })));
    await bid(ann, listingId, 100, 1234);
    expect(await standing(ann, listingId)).toEqual({ listing_id: listingId, has_bid: true, leading: true, max_amount: 1234, max_passed: false });
    // Bob's plain bid is answered by ann's maximum at once: he has a stake, no lead and no maximum of his own to see.
    await bid(bob, listingId, 200);
    expect(await standing(bob, listingId)).toEqual({ listing_id: listingId, has_bid: true, leading: false, max_amount: null, max_passed: false });
    await bid(bob, listingId, 1300, 2000);
    expect(await standing(bob, listingId)).toEqual({ listing_id: listingId, has_bid: true, leading: true, max_amount: 2000, max_passed: false });
    // Ann's answer names her own maximum, passed, and nothing of bob's.
    const annNow = await standing(ann, listingId);
    expect(annNow).toEqual({ listing_id: listingId, has_bid: true, leading: false, max_amount: 1234, max_passed: true });
    expect(JSON.stringify(annNow)).not.toContain('2000');
    // A viewer who never bid here has no stake, whoever leads.
    expect(await standing(carol, listingId)).toEqual(none(listingId));
  });

  it('answers "no stake" for a listing bidding never heard of, and refuses a caller without a session', async () => {
    const [ann] = [await testCaller(svc.env, { role: 'regular' })];
    const unknown = randomUUID();
    expect(await standing(ann, unknown)).toEqual(none(unknown));
    const refused = await standing(null, await auction()).then(
      () => null,
      (error: unknown) => (error as AppError).status,
    );
    expect(refused).toBe(401);
  });

  it('keeps the lead of an accepted bid after the seller sold to it', async () => {
    const listingId = await auction();
    const ann = await testCaller(svc.env, { role: 'regular' });
    await bid(ann, listingId, 150);
    await ds.query(`UPDATE bids SET status = 'accepted' WHERE listing_id = $1`, [listingId]);
    await ds.query(`UPDATE auctions SET status = 'sold' WHERE listing_id = $1`, [listingId]);
    expect(await standing(ann, listingId)).toMatchObject({ has_bid: true, leading: true, max_amount: null });
  });
});
