import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import type { EventEnvelope, EventName } from '@market/contracts';
import { natsTarget, parseEnvOrThrow, serviceEnv } from '@market/server-kit';
import { publishSignedEvent, startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { listingsAppModule } from '../app.module';
import { ListingsRepository, type ListingRecord } from '../listings/listings.repository';
import { buildListing } from './listing.factory';
import type { ListingsConfig } from '../listings.config';

/** listings-service running in this process, with a NATS connection of the test's own to publish its events. */
export interface ListingsUnderTest {
  svc: ServiceUnderTest;
  nc: NatsConnection;
  ds: DataSource;
  listings: ListingsRepository;
  /** Publishes an envelope as its writer's outbox relay would (a new message each time: a repeated id is a redelivery). */
  publish(envelope: EventEnvelope<EventName>): Promise<void>;
  /** A listing of `seller` created and approved, live. */
  live(seller: string, overrides?: Parameters<typeof buildListing>[0]): Promise<ListingRecord>;
  stop(): Promise<void>;
}

/** Starts listings-service on a database of its own and connects to its NATS; `settings` are listings-service's own (listingsEnv). */
export async function startListingsUnderTest(settings: Partial<ListingsConfig> = {}): Promise<ListingsUnderTest> {
  const svc = await startServiceUnderTest('listings-service', (env) => {
    const config = parseEnvOrThrow(serviceEnv, env);
    return { module: listingsAppModule({ ...config, ...settings }), config };
  });
  const nc = await connect(natsTarget(svc.env.NATS_URL)).catch(async (error: unknown) => {
    await svc.stop();
    throw error;
  });
  const listings = svc.app.get(ListingsRepository);
  return {
    svc,
    nc,
    ds: svc.app.get(DataSource),
    listings,
    publish: async (envelope) => {
      await publishSignedEvent(nc, svc.env, envelope, { msgID: randomUUID() });
    },
    live: async (seller, overrides = {}) => (await listings.approve((await listings.insert(seller, buildListing(overrides), 'pending')).id))!,
    // Each part is stopped even when another fails to.
    stop: async () => {
      const results = await Promise.allSettled([nc.close(), svc.stop()]);
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw failure.reason;
    },
  };
}
