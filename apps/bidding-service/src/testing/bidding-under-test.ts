import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RPC, type Actor, type PlaceBidResponse } from '@market/contracts';
import { KIT_MIGRATIONS, openServiceDatabase, parseEnvOrThrow } from '@market/server-kit';
import { signingAs, startServiceUnderTest, type ServiceUnderTest } from '@market/server-kit/testing';
import { biddingAppModule } from '../app.module';
import { biddingEnv } from '../bidding.config';
import { BIDDING_DATABASE } from '../bidding.database';
import { AuctionsRepository, type ListingTerms } from '../auctions/auctions.repository';

const HOUR = 3600_000;

/** bidding-service running in this process on a database of its own, as its integration tests drive it over NATS. */
export function startBiddingUnderTest(): Promise<ServiceUnderTest> {
  return startServiceUnderTest('bidding-service', (env) => {
    const config = parseEnvOrThrow(biddingEnv, env);
    return { module: biddingAppModule(config), config };
  });
}

/** bidding's schema on a test database, migrated as the service migrates it, signing its events as bidding-service (ADR 0065). */
export async function openBiddingDatabase(url: string, poolSize: number): Promise<DataSource> {
  const migrations = [...KIT_MIGRATIONS, ...BIDDING_DATABASE.migrations];
  return signingAs(await openServiceDatabase({ url, schema: BIDDING_DATABASE.schema, entities: [], migrations, poolSize }), 'bidding-service');
}

/** What a test file of bidding-service holds while the service runs: the service, its database and its auctions. */
export interface BiddingUnderTest {
  svc: ServiceUnderTest;
  ds: DataSource;
  auctions: AuctionsRepository;
}

/** Starts bidding-service before the file's tests (handing it to `started`) and stops it after them. */
export function useBiddingUnderTest(started: (under: BiddingUnderTest) => void): void {
  let svc: ServiceUnderTest | undefined;
  beforeAll(async () => {
    svc = await startBiddingUnderTest();
    started({ svc, ds: svc.app.get(DataSource), auctions: svc.app.get(AuctionsRepository) });
  });
  afterAll(async () => {
    await svc?.stop();
  });
}

/** Terms of a live automatic auction as listing events bring them (start $100, a day to go); override any field. */
export function auctionTerms(overrides: Partial<ListingTerms> = {}): ListingTerms {
  return {
    listing_id: randomUUID(),
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
    ...overrides,
  };
}

/** Opens an auction in the service under test with these terms, as a listing event would; returns its listing id. */
export async function openAuction(svc: ServiceUnderTest, overrides: Partial<ListingTerms> = {}): Promise<string> {
  const terms = auctionTerms(overrides);
  await svc.app.get(DataSource).transaction((manager) => svc.app.get(AuctionsRepository).applyListing(terms, manager));
  return terms.listing_id;
}

/** bidding.place_bid as the gateway sends it: an amount, an optional maximum and an optional Idempotency-Key. */
export function placeBidAs(svc: ServiceUnderTest, who: Actor, listingId: string, amount: number, maxAmount?: number, key?: string): Promise<PlaceBidResponse> {
  const input = { listing_id: listingId, amount, ...(maxAmount === undefined ? {} : { max_amount: maxAmount }) };
  return svc.rpc.call(RPC.bidding.placeBid, input, who, key ? { idempotency: { key } } : undefined);
}
