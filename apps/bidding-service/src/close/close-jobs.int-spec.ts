import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import IORedis from 'ioredis';
import { DataSource } from 'typeorm';
import { createServiceApp, parseEnvOrThrow } from '@market/server-kit';
import { busEnvOf, closeAll, createTestDatabase, deleteStream, eventually, isolatedEnv, type TestDatabase } from '@market/server-kit/testing';
import { biddingAppModule } from '../app.module';
import { biddingEnv } from '../bidding.config';
import { AuctionsRepository } from '../auctions/auctions.repository';
import { CloseJobs } from './close-jobs';
import { auctionTerms } from '../testing/bidding-under-test';
import { placeOne } from '../testing/place-one';

describe('close jobs survive a Redis wipe (D8)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let app: INestApplication | undefined;
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

  // The sweep is slowed right down: only a close job can end the auction on time here.
  const start = () =>
    createServiceApp({
      service: 'bidding-service',
      module: biddingAppModule(parseEnvOrThrow(biddingEnv, { ...env, AUCTION_SWEEP_MS: '3600000' })),
      config: parseEnvOrThrow(biddingEnv, env),
      defaultHealthPort: 0,
      healthPort: 0,
    });
  const queueKeys = () => redis.keys(`${env.QUEUE_PREFIX}:*`);

  beforeAll(async () => {
    db = await createTestDatabase('closejobs');
    env = busEnvOf(isolatedEnv(db.url), 'bidding-service');
  });
  afterAll(async () => {
    await closeAll(app);
    for (const key of await queueKeys()) await redis.del(key);
    redis.disconnect();
    await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
    await db.drop();
  });

  it('re-creates the jobs from the database at start, and the auction still closes on time', async () => {
    app = await start();
    const endsAt = new Date(Date.now() + 6000);
    const terms = auctionTerms({ title: 'Wiped but not forgotten', expires_at: endsAt.toISOString() });
    const listingId = terms.listing_id;
    await app.get(DataSource).transaction((manager) => app!.get(AuctionsRepository).applyListing(terms, manager));
    const placed = await placeOne(app.get(AuctionsRepository), listingId, { id: randomUUID(), name: 'ann' }, 100, new Date(), 0);
    expect(placed?.decision.accepted).toBe(true);
    await app.get(CloseJobs).schedule(listingId, endsAt);
    expect((await queueKeys()).length).toBeGreaterThan(0);

    // Redis loses everything while the service is down.
    await closeAll(app);
    app = undefined;
    for (const key of await queueKeys()) await redis.del(key);
    expect(await queueKeys()).toEqual([]);

    app = await start();
    const auctionStatus = async () => (await app!.get(AuctionsRepository).findAuction(listingId))?.status;
    expect(await auctionStatus()).toBe('active');
    await eventually(async () => expect(await auctionStatus()).toBe('sold'), 12_000);
    // On time: within a couple of seconds of the end, long before any sweep.
    const [{ closed_at }] = await app.get(DataSource).query('SELECT closed_at FROM auctions WHERE listing_id = $1', [listingId]);
    expect((closed_at as Date).getTime() - endsAt.getTime()).toBeLessThan(3000);
    expect((closed_at as Date).getTime()).toBeGreaterThanOrEqual(endsAt.getTime());
  });
});
