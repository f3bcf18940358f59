import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import * as contracts from '@market/contracts';
import { durableName, RPC, type EventEnvelope } from '@market/contracts';
import { natsTarget } from '@market/server-kit';
import { eventually } from '@market/server-kit/testing';
// @ts-expect-error plain ESM script without type declarations
import { startNatsServer } from '../../../../scripts/lib/infra.mjs';
import { bearer, get, post, signUp, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';
import { listingForm } from '../support/images';

const ADMIN = { email: 'nats-admin@example.com', password: `nats-admin-${randomBytes(9).toString('base64url')}` };
const codec = JSONCodec();
const RECIPE_SITE = {
  title: 'Recipe site with a loyal audience',
  description: 'A recipe site with hundreds of tested recipes, a loyal audience and a weekly newsletter.',
  category: 'Blog',
  website_url: 'https://recipes.example.com',
  monthly_revenue: 400,
  annual_revenue: 4800,
  monthly_traffic: 12000,
  profit_margin: 60,
  business_age_months: 30,
  monetization_methods: 'AdSense',
  starting_price: 400,
};

/** A port nothing listens on (loopback). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface NatsServer {
  url: string;
  urls: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The marketplace on a nats-server started the way npm start starts one (ADR 0035): a user per process with the
 * permissions contracts compute. Everything the marketplace does works; what a process has no business doing is
 * refused by the server and changes nothing.
 */
describe('NATS with a user per process', () => {
  const tag = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const spaces = { EVENTS_STREAM: `PERM_${tag}`, EVENTS_PREFIX: `perm_${tag}`, NATS_SUBJECT_PREFIX: `rpc_perm_${tag}.` };
  const events = (name: string) => `${spaces.EVENTS_PREFIX}.${name}`;
  const request = (definition: contracts.RpcDefinition) => `${spaces.NATS_SUBJECT_PREFIX}${definition.subject}`;
  let dataDir: string;
  let nats: NatsServer;
  let stack: Stack;
  let operator: NatsConnection;
  const opened: NatsConnection[] = [];
  const api = (path: string) => `${stack.url}/api${path}`;
  const serverLog = () => readFileSync(join(dataDir, 'logs', 'nats-server.log'), 'utf8');

  /** Connects as one process's user, the way that process does. */
  const as = async (user: string) => {
    const nc = await connect({ ...natsTarget(nats.urls[user]), name: `test-as-${user}` });
    opened.push(nc);
    return nc;
  };
  /** How many messages the stream holds on a subject (asked as the operator). */
  const stored = async (subject: string) => {
    const info = await (await operator.jetstreamManager()).streams.info(spaces.EVENTS_STREAM, { subjects_filter: subject });
    return info.state.subjects?.[subject] ?? 0;
  };
  /** An envelope of a well-formed event, as its real writer would publish it. */
  const envelope = <N extends contracts.EventName>(name: N, payload: contracts.EventPayloads[N]): EventEnvelope<N> => ({
    id: randomUUID(),
    name,
    occurred_at: new Date().toISOString(),
    request_id: null,
    payload,
  });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nats-permissions-'));
    nats = await startNatsServer({ port: await freePort(), dataDir, env: spaces, contracts, log: () => undefined });
    operator = await connect({ ...natsTarget(nats.url), name: 'test-operator' });
    stack = await startStack({
      services: ['auth', 'notifications', 'admin', 'listings', 'billing', 'bidding'],
      env: { ...spaces, NATS_URL: nats.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
      natsUrls: nats.urls,
    });
  }, 120_000);
  afterAll(async () => {
    for (const nc of opened) await nc.close().catch(() => undefined);
    await stack?.stop();
    await operator?.close();
    await nats?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the config and the passwords owner-only and names every process a user of its own', () => {
    for (const file of ['nats-server.conf', 'nats-passwords.json']) expect([file, (statSync(join(dataDir, file)).mode & 0o777).toString(8)]).toEqual([file, '600']);
    expect(Object.keys(nats.urls).sort()).toEqual([...contracts.NATS_PARTIES].sort());
    for (const [user, url] of Object.entries(nats.urls)) expect(natsTarget(url)).toMatchObject({ user, inboxPrefix: `_INBOX.${user}` });
  });

  it('runs the marketplace: accounts, a listing approved, a bid the listing learns of, settings announced, admin stats', async () => {
    const adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token as string;
    expect(adminToken).toEqual(expect.any(String));
    const seller = await signUp(stack.url);
    const buyer = await signUp(stack.url);
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { starting_price: 700 });

    // bidding-service learns of the sale from listing.approved, listings-service of the bid from bid.placed.
    await eventually(async () => expect((await post(api('/bids'), { listing_id: listing.id, amount: 700 }, bearer(buyer.token))).status).toBe(201), 20_000);
    await eventually(async () => expect((await get(api(`/listings/${listing.id}`))).body).toMatchObject({ current_bid: 700, bid_count: 1 }), 20_000);

    // admin-service asks auth, listings and billing for their counts (internal subjects only services may call).
    const stats = await get(api('/admin/stats'), bearer(adminToken));
    expect(stats.status).toBe(200);
    expect(stats.body.total_users).toBeGreaterThanOrEqual(3);
    // ...and reads the dead letters from the events stream with its own user's rights (ADR 0046).
    expect(stats.body.dead_letters).toBe(0);

    // admin-service announces a save on settings.changed, and listings-service drops its cached settings at once
    // (rather than after 15 s): a listing created next is approved by itself.
    const { smtp_password_set: _set, ...settings } = (await get(api('/admin/settings'), bearer(adminToken))).body;
    expect((await post(api('/admin/settings'), { ...settings, auto_approve: true }, bearer(adminToken))).status).toBe(200);
    await eventually(async () => {
      const created = await fetch(api('/listings'), { method: 'POST', headers: bearer(seller.token), body: listingForm(RECIPE_SITE) });
      expect(await created.json()).toMatchObject({ status: 'active' });
    }, 5_000, 500);

    // Nothing the marketplace did was refused.
    expect(serverLog()).not.toMatch(/Violation/);
  });

  it('refuses the gateway any event but audit.recorded: a forged bid.placed is never stored, so no consumer applies it', async () => {
    const gateway = await as('gateway');
    const before = await stored(events('bid.placed'));
    const forged = envelope('bid.placed', {
      bid_id: randomUUID(), listing_id: randomUUID(), bidder_id: randomUUID(), bidder_name: 'mallory', amount: 1, current_bid: 1, bid_count: 1,
      reserve_met: true, expires_at: null, extended: false, created_at: new Date().toISOString(), seller_id: randomUUID(), listing_title: 'x', previous_leader_id: null,
    });
    await expect(gateway.jetstream().publish(events('bid.placed'), codec.encode(forged), { msgID: forged.id, timeout: 2000 })).rejects.toThrow(/Permissions Violation for Publish/);
    await expect(gateway.jetstream().publish(events('user.deleted'), codec.encode(envelope('user.deleted', { user_id: randomUUID(), deleted_by: randomUUID() })), { timeout: 2000 })).rejects.toThrow(/Permissions Violation/);
    expect(await stored(events('bid.placed'))).toBe(before);
    expect(serverLog()).toMatch(/Publish Violation.*gateway/);
    // Nor may it read a token-carrying event, call a services-only subject or take a service's consumer.
    await expect(gateway.request(request(RPC.admin.effectiveSettings), codec.encode({}), { timeout: 2000 })).rejects.toThrow(/Permissions Violation for Publish/);
    await expect(subscriptionRefusal(gateway, events('user.verification_requested'))).resolves.toMatch(/Permissions Violation for Subscription/);
    const jsm = await gateway.jetstreamManager();
    await expect(jsm.consumers.info(spaces.EVENTS_STREAM, durableName('listings-service', 'bid.placed'))).rejects.toThrow(/Permissions Violation/);
  });

  it("refuses a service another service's subjects, queue group, inboxes and consumers", async () => {
    const billing = await as('billing-service');
    await expect(subscriptionRefusal(billing, request(RPC.auth.login), 'auth-service')).resolves.toMatch(/Permissions Violation for Subscription/);
    await expect(subscriptionRefusal(billing, `${spaces.NATS_SUBJECT_PREFIX}auth.>`)).resolves.toMatch(/Permissions Violation for Subscription/);
    await expect(subscriptionRefusal(billing, '_INBOX.gateway.>')).resolves.toMatch(/Permissions Violation for Subscription/);
    // Its own subjects only in its own queue group, so it cannot take every copy of a request beside its replicas.
    await expect(subscriptionRefusal(billing, request(RPC.billing.buyNow), 'elsewhere')).resolves.toMatch(/Permissions Violation for Subscription/);
    // Another service's durable consumer, or its own under another filter (the token-carrying account events).
    const jsm = await billing.jetstreamManager();
    await expect(jsm.consumers.info(spaces.EVENTS_STREAM, durableName('notifications-service', 'user.password_reset_requested'))).rejects.toThrow(/Permissions Violation/);
    await expect(
      jsm.consumers.add(spaces.EVENTS_STREAM, { durable_name: durableName('billing-service', 'bid.accepted'), filter_subject: events('user.password_reset_requested') }),
    ).rejects.toThrow(/Permissions Violation/);
    // The marketplace still answers logins: auth-service kept its subject to itself.
    const member = await signUp(stack.url);
    expect((await post(api('/auth/login'), { login: member.username, password: member.password })).status).toBe(200);
  });

  it('refuses a service an event it does not write: nothing is stored', async () => {
    const listings = await as('listings-service');
    const before = await stored(events('bid.placed'));
    const bid = envelope('bid.placed', {
      bid_id: randomUUID(), listing_id: randomUUID(), bidder_id: randomUUID(), bidder_name: 'mallory', amount: 5, current_bid: 5, bid_count: 1,
      reserve_met: true, expires_at: null, extended: false, created_at: new Date().toISOString(), seller_id: randomUUID(), listing_title: 'x', previous_leader_id: null,
    });
    await expect(listings.jetstream().publish(events('bid.placed'), codec.encode(bid), { msgID: bid.id, timeout: 2000 })).rejects.toThrow(/Permissions Violation for Publish/);
    const bidding = await as('bidding-service');
    const beforeDeleted = await stored(events('user.deleted'));
    await expect(bidding.jetstream().publish(events('user.deleted'), codec.encode(envelope('user.deleted', { user_id: randomUUID(), deleted_by: randomUUID() })), { timeout: 2000 })).rejects.toThrow(/Permissions Violation for Publish/);
    // Nor announce a settings change (admin-service's alone).
    await expect(bidding.request(`${spaces.NATS_SUBJECT_PREFIX}settings.changed`, codec.encode({}), { timeout: 2000 })).rejects.toThrow(/Permissions Violation for Publish/);
    expect(await stored(events('bid.placed'))).toBe(before);
    expect(await stored(events('user.deleted'))).toBe(beforeDeleted);
  });

  it('refuses a connection without a user or with a wrong password, and one that does not trust its CA (TLS)', async () => {
    const { servers, tls } = natsTarget(nats.url);
    expect(servers[0]).toMatch(/^tls:\/\//);
    await expect(connect({ servers, tls, reconnect: false })).rejects.toThrow(/Authorization Violation/i);
    await expect(connect({ servers, tls, user: 'gateway', pass: 'not-the-password', reconnect: false })).rejects.toThrow(/Authorization Violation/i);
    // Without the CA that signed its certificate, not even the handshake completes: nothing goes over the wire in clear.
    const { user, pass } = natsTarget(nats.urls.gateway);
    await expect(connect({ servers, user, pass, reconnect: false })).rejects.toThrow(/certificate/i);
  });
});

/** Subscribes and waits for the server's refusal, which it answers (the assertion fails when none comes). */
async function subscriptionRefusal(nc: NatsConnection, subject: string, queue?: string): Promise<string | null> {
  let refusal: string | null = null;
  const subscription = nc.subscribe(subject, {
    queue,
    callback: (error) => {
      if (error) refusal = error.message;
    },
  });
  await eventually(() => expect(refusal).not.toBeNull(), 3_000);
  subscription.unsubscribe();
  return refusal;
}
