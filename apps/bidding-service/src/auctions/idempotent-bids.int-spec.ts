import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RPC, type Actor } from '@market/contracts';
import { AppError, parseEnvOrThrow } from '@market/server-kit';
import { startServiceUnderTest, testCaller, type ServiceUnderTest } from '@market/server-kit/testing';
import { biddingAppModule } from '../app.module';
import { biddingEnv } from '../bidding.config';
import { AuctionsRepository } from './auctions.repository';

const HOUR = 3600_000;

describe('a retried bid is placed once (Idempotency-Key, ADR 0047)', () => {
  let svc: ServiceUnderTest;
  let ds: DataSource;

  const auction = async (): Promise<string> => {
    const listingId = randomUUID();
    await ds.transaction((manager) =>
      svc.app.get(AuctionsRepository).applyListing(
        {
          listing_id: listingId,
          seller_id: randomUUID(),
          title: 'A site for sale',
          website_url: null,
          status: 'active',
          listing_type: 'auction',
          auction_type: 'auto',
          starting_price: 100,
          reserve_price: null,
          buy_now_price: null,
          expires_at: new Date(Date.now() + 24 * HOUR).toISOString(),
          updated_at: new Date().toISOString(),
        },
        manager,
      ),
    );
    return listingId;
  };
  const bidsOn = async (listingId: string) =>
    ((await ds.query('SELECT amount::float8 AS amount FROM bids WHERE listing_id = $1 ORDER BY amount', [listingId])) as { amount: number }[]).map((row) => row.amount);
  const bid = (who: Actor, listingId: string, amount: number, key: string) =>
    svc.rpc.call(RPC.bidding.placeBid, { listing_id: listingId, amount }, who, { idempotency: { key } });

  beforeAll(async () => {
    svc = await startServiceUnderTest('bidding-service', (env) => {
      const config = parseEnvOrThrow(biddingEnv, env);
      return { module: biddingAppModule(config), config };
    });
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
