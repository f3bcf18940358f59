import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RPC, type Actor } from '@market/contracts';
import { testCaller } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import { buildListing } from '../testing/listing.factory';
import { EndingSoonSweep } from './ending-soon.sweep';

const HOUR = 3_600_000;

/** The "ending in 24 hours" reminder of a watched auction (ADR 0074), swept on a real database. */
describe('ending-soon reminders of watched auctions (ADR 0074)', () => {
  let under: ListingsUnderTest;
  let ds: DataSource;
  let sweep: EndingSoonSweep;

  const call = (definition: (typeof RPC.listings)[keyof typeof RPC.listings], input: unknown, actor: Actor | null) =>
    under.svc.rpc.call(definition as never, input as never, actor) as Promise<never>;
  /** A live auction ending `endsInMs` from now, watched by each user since `watchedAgoMs` ago. */
  const auction = async (endsInMs: number, watchers: Actor[], watchedAgoMs: number, type: 'auction' | 'fixed' = 'auction') => {
    const listing = await under.live(randomUUID(), buildListing({ listing_type: type }));
    await ds.query(`UPDATE listings SET expires_at = now() + $2::float8 * interval '1 millisecond' WHERE id = $1`, [listing.id, endsInMs]);
    for (const watcher of watchers) {
      await call(RPC.listings.watchlistAdd, { listing_id: listing.id }, watcher);
      await ds.query(`UPDATE watchlist SET created_at = now() - $3::float8 * interval '1 millisecond' WHERE user_id = $1 AND listing_id = $2`, [watcher.user_id, listing.id, watchedAgoMs]);
    }
    return listing;
  };
  const reminders = async (listingId: string): Promise<Array<{ user_id: string; unsubscribe_token: string; current_price: number }>> =>
    (await ds.query(`SELECT payload FROM outbox WHERE name = 'watch.ending_soon' AND payload->>'listing_id' = $1 ORDER BY seq`, [listingId])).map(
      (row: { payload: { user_id: string; unsubscribe_token: string; current_price: number } }) => row.payload,
    );

  beforeAll(async () => {
    under = await startListingsUnderTest();
    ds = under.ds;
    sweep = under.svc.app.get(EndingSoonSweep);
  });
  afterAll(async () => {
    await under?.stop();
  });

  it('reminds each watcher once, a day before the end, only of auctions watched before that day began', async () => {
    const [ann, bob, cy] = await Promise.all([0, 1, 2].map(() => testCaller(under.svc.env, { role: 'regular' })));
    const soon = await auction(12 * HOUR, [ann, bob], 20 * HOUR);
    const later = await auction(30 * HOUR, [ann], 20 * HOUR);
    const justWatched = await auction(12 * HOUR, [cy], 1 * HOUR);
    const fixed = await auction(12 * HOUR, [ann], 20 * HOUR, 'fixed');

    await sweep.sweep();
    const sent = await reminders(soon.id);
    expect(sent.map((r) => r.user_id).sort()).toEqual([ann.user_id, bob.user_id].sort());
    expect(sent[0].current_price).toBe(Number(soon.starting_price));
    for (const quiet of [later, justWatched, fixed]) expect(await reminders(quiet.id)).toEqual([]);

    // Swept again, or after the auction is extended, nobody hears twice.
    await ds.query(`UPDATE listings SET expires_at = expires_at + interval '2 hours' WHERE id = $1`, [soon.id]);
    await sweep.sweep();
    expect(await reminders(soon.id)).toHaveLength(2);

    // Approved again (a new sale period, as after an unpaid sale), it ends within the day again: a new reminder each.
    await ds.query(`UPDATE listings SET approved_at = now() WHERE id = $1`, [soon.id]);
    await sweep.sweep();
    expect(await reminders(soon.id)).toHaveLength(4);
  });

  it("stops a watcher's reminders from the dashboard or the email's signed link, and starts them again", async () => {
    const [ann, bob] = await Promise.all([0, 1].map(() => testCaller(under.svc.env, { role: 'regular' })));
    const first = await auction(10 * HOUR, [ann, bob], 30 * HOUR);
    expect(((await call(RPC.listings.watchlistList, {}, ann)) as { reminders: boolean }).reminders).toBe(true);
    await sweep.sweep();
    const [toAnn] = (await reminders(first.id)).filter((r) => r.user_id === ann.user_id);

    // Ann follows the link in her email; Bob turns them off in the dashboard.
    expect(await call(RPC.listings.unsubscribe, { token: toAnn.unsubscribe_token }, null)).toEqual({ message: 'You will get no more reminders before watched auctions end' });
    expect(await call(RPC.listings.watchReminders, { reminders: false }, bob)).toEqual({ reminders: false });
    expect(((await call(RPC.listings.watchlistList, {}, ann)) as { reminders: boolean }).reminders).toBe(false);
    const second = await auction(10 * HOUR, [ann, bob], 30 * HOUR);
    await sweep.sweep();
    expect(await reminders(second.id)).toEqual([]);

    expect(await call(RPC.listings.watchReminders, { reminders: true }, ann)).toEqual({ reminders: true });
    const third = await auction(10 * HOUR, [ann, bob], 30 * HOUR);
    await sweep.sweep();
    expect((await reminders(third.id)).map((r) => r.user_id)).toEqual([ann.user_id]);
  });
});
