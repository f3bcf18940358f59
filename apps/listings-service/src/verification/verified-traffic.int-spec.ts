import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RPC, type Actor, type ListingDto, type VerificationConnectionsDto } from '@market/contracts';
import { verifiedMonths } from '@market/domain';
import { AppError } from '@market/server-kit';
import { eventually, testCaller } from '@market/server-kit/testing';
import { startListingsUnderTest, type ListingsUnderTest } from '../testing/listings-under-test';
import { ANALYTICS_READONLY, GoogleStandIn } from './sandbox/google.stand-in';
import { VerificationRefresher } from './verification-refresher';

const REDIRECT = 'http://localhost:3000/verify/ga4';

/** Verified traffic through Google's OAuth and Analytics Data clients against their stand-in (D24, ADR 0084). */
describe('verified traffic (D24)', () => {
  const google = new GoogleStandIn();
  let under: ListingsUnderTest;
  let ds: DataSource;
  const months = verifiedMonths(new Date());

  const call = <D extends (typeof RPC.listings)[keyof typeof RPC.listings]>(definition: D, input: unknown, actor: Actor | null) =>
    under.svc.rpc.call(definition as never, input as never, actor) as Promise<never>;
  const failure = async (pending: Promise<unknown>): Promise<AppError> => {
    const outcome = await pending.then(() => null, (error: unknown) => error);
    if (!(outcome instanceof AppError)) throw new Error(`expected a typed error, got ${String(outcome)}`);
    return outcome;
  };
  const person = () => testCaller(under.svc.env, { role: 'regular' });
  const start = async (actor: Actor, id: string, property: string) => {
    const { authorize_url } = (await call(RPC.listings.startGa4, { id, start: { property_id: property }, redirect_uri: REDIRECT }, actor)) as { authorize_url: string };
    return new URL(authorize_url).searchParams.get('state') as string;
  };
  const finish = (actor: Actor, code: string, state: string) =>
    call(RPC.listings.finishGa4, { finish: { code, state }, redirect_uri: REDIRECT }, actor) as Promise<VerificationConnectionsDto>;
  /** The listing once the first full read (a job right after the connect) is in. */
  const verified = async (id: string) => {
    await eventually(async () => expect(((await call(RPC.listings.get, { id }, null)) as ListingDto).verification?.traffic).not.toBeNull());
    return (await call(RPC.listings.get, { id }, null)) as ListingDto;
  };
  const code = (refresh_token: string, scopes = [ANALYTICS_READONLY]) => google.issueCode({ scopes, refresh_token, redirect_uri: REDIRECT });
  /** A property with `sessions` a month over the last 8 verified months (users half), readable by a new Google user. */
  const property = (sessions: number) => {
    const id = String(100_000_000 + Math.floor(Math.random() * 1e8));
    const refresh = `1//user-${randomUUID()}`;
    google.addProperty(id, months.slice(4).map((month) => ({ month, sessions, users: sessions / 2 })), [refresh]);
    return { id, refresh };
  };

  beforeAll(async () => {
    await google.start();
    const at = google.endpoints;
    under = await startListingsUnderTest({
      GOOGLE_OAUTH_CLIENT_ID: google.client.id,
      GOOGLE_OAUTH_CLIENT_SECRET: google.client.secret,
      GOOGLE_OAUTH_AUTHORIZE_URL: at.authorizeUrl,
      GOOGLE_OAUTH_TOKEN_URL: at.tokenUrl,
      GOOGLE_OAUTH_REVOKE_URL: at.revokeUrl,
      GA4_DATA_API_URL: `http://${at.dataApiEndpoint}`,
      VERIFICATION_TEST_MODE: true,
      VERIFICATION_TIMEOUT_MS: 800,
    });
    ds = under.ds;
  });
  afterAll(async () => {
    await under?.stop();
    await google.stop();
  });

  it('connects a property through the consent, keeps only the sealed refresh token, and averages from the first active month', async () => {
    const seller = await person();
    const live = await under.live(seller.user_id, { monthly_traffic: 20_000 });
    const { id, refresh } = property(20_000);
    const { authorize_url } = (await call(RPC.listings.startGa4, { id: live.id, start: { property_id: id }, redirect_uri: REDIRECT }, seller)) as { authorize_url: string };
    const consent = new URL(authorize_url);
    expect(consent.searchParams.get('scope')).toContain(ANALYTICS_READONLY);
    expect(consent.searchParams.get('redirect_uri')).toBe(REDIRECT);
    const state = consent.searchParams.get('state') as string;

    const answer = await finish(seller, code(refresh), state);
    expect(JSON.stringify(answer)).not.toContain(refresh);
    expect(answer.sources.find((s) => s.source === 'ga4')).toMatchObject({ available: true, test_mode: true, connection: { state: 'active', property_id: id } });
    const [stored] = await ds.query('SELECT credential FROM listing_verifications WHERE listing_id = $1', [live.id]);
    expect(stored.credential.includes(Buffer.from(refresh))).toBe(false);

    const shown = await verified(live.id);
    expect(shown.traffic_verified).toBe(true);
    expect(shown.verification?.traffic).toMatchObject({
      state: 'current',
      test_mode: true,
      monthly_average_sessions: 20_000,
      monthly_average_users: 10_000,
      claimed: 20_000,
      inflated: false,
      property_id: id,
    });
    expect(shown.verification?.traffic?.months.map((m) => m.sessions)).toEqual(months.map((_m, i) => (i < 4 ? 0 : 20_000)));

    // The claim is held against sessions: 15% above is fine, one more is flagged.
    await ds.query('UPDATE listings SET monthly_traffic = 23001 WHERE id = $1', [live.id]);
    expect(((await call(RPC.listings.get, { id: live.id }, null)) as ListingDto).verification?.traffic?.inflated).toBe(true);
  });

  it('refuses a state not issued to the caller, a used one and an expired one, changing nothing (CSRF)', async () => {
    const [seller, attacker] = [await person(), await person()];
    const live = await under.live(seller.user_id);
    const mine = await under.live(attacker.user_id);
    const { id, refresh } = property(5_000);
    const state = await start(seller, live.id, id);
    // The attacker's own consent finished with the seller's state: refused, and the state still works for the seller.
    expect((await failure(finish(attacker, code(refresh), state))).status).toBe(400);
    expect((await failure(finish(attacker, code(refresh), 'made-up-state'))).status).toBe(400);
    const admin = await testCaller(under.svc.env, { role: 'admin' });
    const acting = await testCaller(under.svc.env, { user_id: seller.user_id, role: 'regular', impersonator_id: admin.user_id });
    expect((await failure(finish(acting, code(refresh), state))).status).toBe(400);
    expect(await ds.query('SELECT 1 FROM listing_verifications WHERE listing_id = ANY($1::uuid[])', [[live.id, mine.id]])).toEqual([]);

    await finish(seller, code(refresh), state);
    expect((await failure(finish(seller, code(refresh), state))).status).toBe(400);

    const late = await start(seller, live.id, id);
    await ds.query(`UPDATE verification_states SET expires_at = now() - interval '1 second' WHERE state = $1`, [late]);
    expect((await failure(finish(seller, code(refresh), late))).status).toBe(400);
    // A new consent for the listing replaces the one under way.
    const replaced = await start(seller, live.id, id);
    await start(seller, live.id, id);
    expect((await failure(finish(seller, code(refresh), replaced))).status).toBe(400);
    // Someone else's listing cannot be started at all.
    expect((await failure(start(attacker, live.id, id))).status).toBe(403);
  });

  it('refuses a consent without the scope or a property the user cannot read, and keeps nothing', async () => {
    const seller = await person();
    const live = await under.live(seller.user_id);
    const { id, refresh } = property(1_000);
    const noScope = await failure(finish(seller, code(refresh, ['openid']), await start(seller, live.id, id)));
    expect(noScope.status).toBe(400);
    const stranger = await failure(finish(seller, code(`1//other-${randomUUID()}`), await start(seller, live.id, id)));
    expect(stranger.status).toBe(400);
    expect(await ds.query('SELECT 1 FROM listing_verifications WHERE listing_id = $1', [live.id])).toEqual([]);
  });

  it('marks a connection revoked when the user takes the access back, and shows when it was last verified', async () => {
    const seller = await person();
    const live = await under.live(seller.user_id);
    const { id, refresh } = property(3_000);
    await finish(seller, code(refresh), await start(seller, live.id, id));
    await verified(live.id);
    google.revoke(refresh);
    expect(await under.svc.app.get(VerificationRefresher).refresh(live.id, 'ga4')).toBe('revoked');
    const shown = (await call(RPC.listings.get, { id: live.id }, null)) as ListingDto;
    expect(shown.traffic_verified).toBe(false);
    expect(shown.verification?.traffic).toMatchObject({ state: 'revoked', monthly_average_sessions: 3_000 });
    expect(Date.parse(shown.verification?.traffic?.verified_at ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it('gives the access back at Google when the seller disconnects, or connects another account', async () => {
    const seller = await person();
    const live = await under.live(seller.user_id);
    const first = property(2_000);
    await finish(seller, code(first.refresh), await start(seller, live.id, first.id));
    await verified(live.id);
    const second = property(4_000);
    await finish(seller, code(second.refresh), await start(seller, live.id, second.id));
    await eventually(() => expect(google.isRevoked(first.refresh)).toBe(true));
    expect(google.isRevoked(second.refresh)).toBe(false);
    await call(RPC.listings.disconnect, { id: live.id, source: 'ga4' }, seller);
    expect(google.isRevoked(second.refresh)).toBe(true);
    expect(await ds.query('SELECT 1 FROM listing_verifications WHERE listing_id = $1', [live.id])).toEqual([]);
  });
});
