import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { type Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import { testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { openAuction, placeBidAs, startBiddingUnderTest } from '../testing/bidding-under-test';

describe('a retried bid is placed once (Idempotency-Key, ADR 0047)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;

  const auction = () => openAuction(svc);
  const bidsOn = async (listingId: string) =>
    ((await ds.query('SELECT amount::float8 AS amount FROM bids WHERE listing_id = $1 ORDER BY amount', [listingId])) as { amount: number }[]).map((row) => row.amount);
  const bid = (who: Actor, listingId: string, amount: number, key: string) => placeBidAs(svc, who, listingId, amount, undefined, key);

  beforeAll(async () => {
    svc = await startBiddingUnderTest();
    ds = svc.app.get(DataSource);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('the same key twice gives one bid and the first answer; another amount under it is refused 422', async () => {
    const listingId = await auction();
    const bidder = await testCaller(svc.env, { role: 'regular' });
    const key = randomUUID();
    const first = await bid(bidder, listingId, 150, key);
    expect(await bid(bidder, listingId, 150, key)).toEqual(first);
    expect(await bidsOn(listingId)).toEqual([150]);
    const refused = await bid(bidder, listingId, 200, key).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(422);
    expect(await bidsOn(listingId)).toEqual([150]);
  });

  it('a refused bid answers the same refusal on a retry and places nothing', async () => {
    const listingId = await auction();
    const bidder = await testCaller(svc.env, { role: 'regular' });
    const key = randomUUID();
    const low = await bid(bidder, listingId, 50, key).catch((error: unknown) => error);
    expect((low as AppError).status).toBe(400);
    const again = await bid(bidder, listingId, 50, key).catch((error: unknown) => error);
    expect(again).toEqual(low);
    expect(await bidsOn(listingId)).toEqual([]);
  });

  it('concurrent duplicates give one bid', async () => {
    const listingId = await auction();
    const bidder = await testCaller(svc.env, { role: 'regular' });
    const key = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        bid(bidder, listingId, 300, key).then(
          () => 'placed',
          (error: unknown) => (error as AppError).status,
        ),
      ),
    );
    expect(await bidsOn(listingId)).toEqual([300]);
    expect(outcomes).toContain('placed');
    for (const outcome of outcomes) expect(['placed', 409]).toContain(outcome);
  });
});
