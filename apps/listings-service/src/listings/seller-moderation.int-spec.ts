import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { BrowseListingsQuerySchema, type EventEnvelope, type EventName, type EventPayloads } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import { buildListing } from '../testing/listing.factory';
import { ListingsRepository } from './listings.repository';

const MINUTE = 60_000;

describe('listings follow moderation and repricing over the bus (ADR 0038)', () => {
  let under: ListingsUnderTest;
  let ds: DataSource;
  let listings: ListingsRepository;

  /** Publishes an event as its writer's outbox relay would; `id` repeats one (a redelivery). */
  const publish = async <N extends EventName>(name: N, payload: EventPayloads[N], id: string = randomUUID()) => {
    await under.publish({ id, name, occurred_at: new Date().toISOString(), request_id: null, payload } as EventEnvelope<EventName>);
    return id;
  };
  const live = (seller: string, overrides: Parameters<typeof buildListing>[0] = {}) => under.live(seller, overrides);
  const statusOf = async (id: string) => (await listings.findById(id))?.status;
  const flagOf = async (id: string) => ((await ds.query('SELECT moderation_paused FROM listings WHERE id = $1', [id])) as { moderation_paused: boolean }[])[0].moderation_paused;
  const updates = async (id: string) =>
    ((await ds.query(`SELECT payload->>'status' AS status FROM outbox WHERE name = 'listing.updated' AND payload->>'listing_id' = $1 ORDER BY seq`, [id])) as {
      status: string;
    }[]).map((r) => r.status);
  const browseIds = async () => (await listings.browse(BrowseListingsQuerySchema.parse({ limit: 100 }))).listings.map((l) => l.id);
  const suspended = (userId: string, at = new Date()) => ({ user_id: userId, suspended_by: randomUUID(), at: at.toISOString() });
  const reactivated = (userId: string, at = new Date()) => ({ user_id: userId, reactivated_by: randomUUID(), at: at.toISOString() });

  beforeAll(async () => {
    under = await startListingsUnderTest();
    ({ ds, listings } = under);
  });
  afterAll(async () => {
    await under?.stop();
  });

  it("a suspension pauses the seller's live listings (hidden, bidding told); a reactivation restores exactly those", async () => {
    const [seller, other] = [randomUUID(), randomUUID()];
    const [a, b] = [await live(seller), await live(seller)];
    const ownPause = await live(seller);
    await listings.setStatus(ownPause.id, 'paused', ds.manager);
    const draft = await listings.insert(seller, buildListing(), 'draft');
    const bystander = await live(other);

    await publish('user.suspended', suspended(seller));
    await eventually(async () => expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['paused', 'paused']));
    expect(await updates(a.id)).toEqual(['paused']);
    expect(await statusOf(ownPause.id)).toBe('paused');
    expect(await statusOf(draft.id)).toBe('draft');
    expect(await statusOf(bystander.id)).toBe('active');
    const shown = await browseIds();
    expect(shown).toContain(bystander.id);
    expect(shown).not.toContain(a.id);

    await publish('user.reactivated', reactivated(seller));
    await eventually(async () => expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['active', 'active']));
    expect(await updates(b.id)).toEqual(['paused', 'active']);
    expect(await statusOf(ownPause.id)).toBe('paused');
    expect(await updates(ownPause.id)).toEqual([]);
    expect(await flagOf(a.id)).toBe(false);
  });

  it('redelivered or older moderation events change nothing', async () => {
    const [seller, marker] = [randomUUID(), randomUUID()];
    const listing = await live(seller);
    const markerListing = await live(marker);
    const suspendedAt = new Date(Date.now() - MINUTE);
    const suspension = await publish('user.suspended', suspended(seller, suspendedAt));
    await eventually(async () => expect(await statusOf(listing.id)).toBe('paused'));
    await publish('user.reactivated', reactivated(seller));
    await eventually(async () => expect(await statusOf(listing.id)).toBe('active'));

    // The same suspension again (same id: a redelivery), then a different one older than the reactivation.
    await publish('user.suspended', suspended(seller, suspendedAt), suspension);
    await publish('user.suspended', suspended(seller, new Date(Date.now() - 2 * MINUTE)));
    // Events of one name are applied in order: once a marker published after them is applied, they were handled.
    await publish('user.suspended', suspended(marker));
    await eventually(async () => expect(await statusOf(markerListing.id)).toBe('paused'));
    expect(await statusOf(listing.id)).toBe('active');
    expect(await updates(listing.id)).toEqual(['paused', 'active']);
  });

  it('a reactivation that overtook its suspension leaves the listings live', async () => {
    const seller = randomUUID();
    const listing = await live(seller);
    await publish('user.reactivated', reactivated(seller));
    // The reactivation is applied first (it overtook the suspension, which another consumer handles).
    await eventually(async () => expect(await ds.query('SELECT status FROM member_states WHERE user_id = $1', [seller])).toEqual([{ status: 'active' }]));
    await publish('user.suspended', suspended(seller, new Date(Date.now() - MINUTE)));
    const marker = randomUUID();
    const markerListing = await live(marker);
    await publish('user.suspended', suspended(marker));
    await eventually(async () => expect(await statusOf(markerListing.id)).toBe('paused'));
    expect(await statusOf(listing.id)).toBe('active');
  });

  it("a deleted seller's listings are withdrawn for good: a late reactivation brings none back", async () => {
    const seller = randomUUID();
    const listing = await live(seller);
    await publish('user.suspended', suspended(seller));
    await eventually(async () => expect(await statusOf(listing.id)).toBe('paused'));
    await publish('user.deleted', { user_id: seller, deleted_by: randomUUID() });
    await eventually(async () => expect(await statusOf(listing.id)).toBe('draft'));
    expect(await flagOf(listing.id)).toBe(false);
    await publish('user.reactivated', reactivated(seller, new Date(Date.now() + MINUTE)));
    const marker = randomUUID();
    const markerListing = await live(marker);
    // Suspension and reactivation have consumers of their own: the marker's reactivation waits for its suspension.
    await publish('user.suspended', suspended(marker));
    await eventually(async () => expect(await statusOf(markerListing.id)).toBe('paused'));
    await publish('user.reactivated', reactivated(marker, new Date(Date.now() + MINUTE)));
    await eventually(async () => expect(await updates(markerListing.id)).toEqual(['paused', 'active']));
    expect(await statusOf(listing.id)).toBe('draft');
  });

  it('auction.repriced lowers the price and count; an older bid.placed or a redelivery never moves it back', async () => {
    const seller = randomUUID();
    const listing = await live(seller, { starting_price: 1000 });
    const placed = (amount: number, count: number, version?: number): EventPayloads['bid.placed'] => ({
      bid_id: randomUUID(),
      listing_id: listing.id,
      bidder_id: randomUUID(),
      bidder_name: 'ann',
      amount,
      current_bid: amount,
      bid_count: count,
      reserve_met: true,
      expires_at: null,
      extended: false,
      created_at: new Date().toISOString(),
      seller_id: seller,
      listing_title: listing.title,
      previous_leader_id: null,
      ...(version === undefined ? {} : { price_version: version }),
    });
    const priced = async () => {
      const row = await listings.findById(listing.id);
      return [row?.current_bid, row?.bid_count, row?.price_version];
    };
    // An event from before price versions: its count is its version.
    await publish('bid.placed', placed(1000, 1));
    await publish('bid.placed', placed(1050, 2, 2));
    const late = placed(1100, 3, 3);
    await publish('bid.placed', late);
    await eventually(async () => expect(await priced()).toEqual([1100, 3, 3]));

    const repriced = { listing_id: listing.id, current_bid: 1050, bid_count: 2, reserve_met: true, price_version: 4, reason: 'bid_rejected' as const, at: new Date().toISOString() };
    const id = await publish('auction.repriced', repriced);
    await eventually(async () => expect(await priced()).toEqual([1050, 2, 4]));
    // The rejected bid's own event arriving again, the repricing redelivered and an older one: no change. Events of one
    // name are applied in order, so once a marker on another listing is applied, these were handled.
    const other = await live(seller, { starting_price: 1000 });
    await publish('bid.placed', late);
    await publish('auction.repriced', { ...repriced, current_bid: 999_999 }, id);
    await publish('auction.repriced', { ...repriced, current_bid: 1000, bid_count: 1, price_version: 3 });
    await publish('bid.placed', { ...placed(1000, 1, 1), listing_id: other.id });
    await publish('auction.repriced', { ...repriced, listing_id: other.id, current_bid: null, bid_count: 0, price_version: 2 });
    await eventually(async () => expect((await listings.findById(other.id))?.price_version).toBe(2));
    expect(await priced()).toEqual([1050, 2, 4]);
    await publish('bid.placed', placed(1100, 3, 5));
    await eventually(async () => expect(await priced()).toEqual([1100, 3, 5]));
    await publish('auction.repriced', { ...repriced, current_bid: null, bid_count: 0, price_version: 6 });
    await eventually(async () => expect(await priced()).toEqual([null, 0, 6]));
  });
});
