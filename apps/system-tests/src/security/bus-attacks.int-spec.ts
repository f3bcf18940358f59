import { randomBytes, randomUUID } from 'node:crypto';
import { connect, JSONCodec, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import { deadLetterSubject, RPC, type EventEnvelope, type EventName, type EventParty, type EventPayloads, type RpcDefinition } from '@market/contracts';
import { Redis } from 'ioredis';
import { accountStateKey, eventSubject, sealFor } from '@market/server-kit';
import { eventually, openedEvent, openRequest, requestAs, respondSigned, sealedRequest, signedEventHeaders, testBusIdentity } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp, startStack, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';

const ADMIN = { email: 'bus-admin@example.com', password: `bus-admin-${randomBytes(9).toString('base64url')}` };
const codec = JSONCodec();
const INTERNAL = Object.values(RPC).flatMap((area) => Object.values(area) as RpcDefinition[]).filter((definition) => definition.internal);

/**
 * The attacks of D25 replayed by an outsider on an open NATS (the machine's, no users: the worst case), against the
 * whole marketplace in-process: forged events, calls to internal subjects, a spoofed reply racing the real one, and a
 * stolen service key that may do only what that service may (ADR 0065). Each is refused and nothing changes.
 */
describe('an outsider on the bus', () => {
  let stack: Stack;
  let nc: NatsConnection;
  let adminToken: string;
  const subjectOf = (definition: RpcDefinition) => `${stack.env.NATS_SUBJECT_PREFIX}${definition.subject}`;

  /** Sends a raw request; `as` signs it with that process's (stolen) key. The error status, or null for an answer. */
  const ask = async (definition: RpcDefinition, data: unknown, as?: EventParty): Promise<number | null> => {
    const subject = subjectOf(definition);
    const packet = codec.encode({ pattern: definition.subject, id: randomUUID(), data: { meta: { request_id: randomUUID(), token: null }, data } });
    const reply = await requestAs(nc, stack.env, as ?? null, subject, packet);
    return (codec.decode(reply.data) as { err?: { status?: number } }).err?.status ?? null;
  };
  /** Dead letters waiting for one consumer. */
  const deadLetters = async (consumer: EventParty) => {
    const subject = deadLetterSubject(stack.env.EVENTS_PREFIX, consumer);
    const info = await (await nc.jetstreamManager()).streams.info(stack.env.EVENTS_STREAM, { subjects_filter: subject });
    return info.state.subjects?.[subject] ?? 0;
  };
  /** Publishes an event onto the stream as an outsider would: unsigned, or with the headers given. */
  const inject = async <N extends EventName>(name: N, payload: EventPayloads[N], headers?: (event: EventEnvelope) => MsgHdrs) => {
    const event: EventEnvelope = { id: randomUUID(), name, occurred_at: new Date().toISOString(), request_id: null, payload } as EventEnvelope;
    await nc.jetstream().publish(eventSubject(stack.env.EVENTS_PREFIX, name), codec.encode(event), { msgID: event.id, headers: headers?.(event) });
    return event;
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'notifications', 'admin', 'listings', 'billing', 'bidding'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100' },
    });
    nc = await connect({ servers: stack.env.NATS_URL });
    adminToken = (await post(`${stack.url}/api/auth/login`, { login: ADMIN.email, password: ADMIN.password })).body.access_token as string;
  }, 120_000);
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it('cannot sell an auction for $1 with a forged bid.accepted, unsigned or signed with a stolen listings-service key', async () => {
    const seller = await signUp(stack.url);
    const buyer = await signUp(stack.url);
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { starting_price: 1000 });
    const consumers: EventParty[] = ['listings-service', 'billing-service', 'notifications-service'];
    const before = await Promise.all(consumers.map(deadLetters));
    const sale: EventPayloads['bid.accepted'] = {
      bid_id: randomUUID(), listing_id: listing.id, listing_title: 'Bird watching blog', website_url: null, seller_id: seller.id, buyer_id: buyer.id,
      amount: 1, kind: 'bid', sale: 'auction_win', accepted_at: new Date().toISOString(),
    };
    await inject('bid.accepted', sale);
    await inject('bid.accepted', { ...sale, bid_id: randomUUID() }, (event) => signedEventHeaders(stack.env, event, 'listings-service'));

    // Each consumer has dealt with both: they are on its dead-letter subject, applied by no one.
    await eventually(async () => expect(await Promise.all(consumers.map(deadLetters))).toEqual(before.map((count) => count + 2)), 20_000);
    expect((await get(`${stack.url}/api/listings/${listing.id}`)).body).toMatchObject({ status: 'active' });
    expect((await get(`${stack.url}/api/invoices`, bearer(buyer.token))).body).toMatchObject({ invoices: [] });
  });

  it('cannot have a payment.captured mailed as if billing-service had written it', async () => {
    const before = await deadLetters('notifications-service');
    const facts: EventPayloads['payment.captured'] = {
      payment_intent_id: randomUUID(), invoice_id: randomUUID(), invoice_number: 'INV-FORGED', buyer_id: randomUUID(), seller_id: randomUUID(),
      website_title: 'Forged', amount: 50_000, at: new Date().toISOString(),
    };
    await inject('payment.captured', facts);
    await inject('payment.captured', { ...facts, invoice_id: randomUUID() }, (event) => signedEventHeaders(stack.env, event, 'bidding-service'));
    await eventually(async () => expect(await deadLetters('notifications-service')).toBe(before + 2), 20_000);
  });

  it('gets nothing from an internal subject: 401 unsigned, 403 signed by the gateway or by a service that does not call it', async () => {
    expect(INTERNAL.length).toBeGreaterThan(5);
    for (const definition of INTERNAL) {
      expect([definition.subject, await ask(definition, {})]).toEqual([definition.subject, 401]);
      // Every process checks tokens against session state, the gateway's process included (never for a browser).
      if (definition !== RPC.auth.sessionState) expect([definition.subject, await ask(definition, {}, 'gateway')]).toEqual([definition.subject, 403]);
    }
    expect(await ask(RPC.auth.sessionState, { user_id: randomUUID() })).toBe(401);
    // A captured request of the gateway's, sent again after its expiry (ADR 0068): refused with why, sealed for its sender.
    const stale = codec.encode({ pattern: RPC.auth.me.subject, id: randomUUID(), data: { meta: { request_id: randomUUID(), token: null }, data: {} } });
    const refused = await requestAs(nc, stack.env, 'gateway', subjectOf(RPC.auth.me), stale, 5000, -60_000);
    expect(codec.decode(refused.data)).toMatchObject({ err: { status: 401, detail: 'The request was not believed: expired', bus: true } });
    // The same expired request sent twice is told once: copies of it make the service seal nothing more.
    const inbox = `_INBOX.${randomUUID()}`;
    const told: string[] = [];
    const listener = nc.subscribe(inbox, { callback: (_error, msg) => told.push(msg.subject) });
    const copy = sealedRequest(stack.env, 'gateway', subjectOf(RPC.auth.me), inbox, stale, -60_000);
    nc.publish(subjectOf(RPC.auth.me), copy, { reply: inbox });
    nc.publish(subjectOf(RPC.auth.me), copy, { reply: inbox });
    // A request after them, answered: auth-service took both copies before it.
    expect(await ask(RPC.auth.me, {})).toBe(401);
    await nc.flush();
    listener.unsubscribe();
    expect(told).toEqual([inbox]);
    // The directory of members' emails answers notifications-service alone.
    expect(await ask(RPC.auth.contacts, { user_ids: [randomUUID()] }, 'billing-service')).toBe(403);
    expect(await ask(RPC.auth.contacts, { user_ids: [randomUUID()] }, 'notifications-service')).toBeNull();
    // The settings with the SMTP password answer the services that read settings, never the gateway.
    expect(await ask(RPC.admin.effectiveSettings, {}, 'gateway')).toBe(403);
  });

  it('gets no answer sent anywhere but an inbox, and a signed request that is no request packet ends nothing (ADR 0066)', async () => {
    const subject = subjectOf(RPC.auth.me);
    const packet = codec.encode({ pattern: RPC.auth.me.subject, id: randomUUID(), data: { meta: { request_id: randomUUID(), token: null }, data: {} } });
    // An answer aimed at the JetStream API would be a command sent with the service's rights (allow_responses).
    const target = `$JS.API.STREAM.PURGE.${stack.env.EVENTS_STREAM}`;
    const inbox = `_INBOX.${randomUUID()}`;
    const heard: string[] = [];
    const traps = [target, inbox].map((trap) => nc.subscribe(trap, { callback: (_error, msg) => heard.push(msg.subject) }));
    await nc.flush();
    try {
      nc.publish(subject, packet, { reply: target });
      nc.publish(subject, sealedRequest(stack.env, 'gateway', subject, target, packet), { reply: target });
      // Sealed for auth-service with a stolen gateway key, but not JSON: once, Nest would have thrown on it.
      nc.publish(subject, sealedRequest(stack.env, 'gateway', subject, inbox, new TextEncoder().encode('not a packet')), { reply: inbox });
      // Sealed with a stolen gateway key, but no request: bytes a seal of the bus holds, without the frame that binds them.
      const gateway = testBusIdentity(stack.env, 'gateway');
      nc.publish(subject, sealFor(gateway.signer, gateway.keys, 'auth-service', packet), { reply: inbox });
      // A request after them, answered: auth-service is alive, and took the three before it.
      expect(await ask(RPC.auth.me, {})).toBe(401);
      await nc.flush();
      expect(heard).toEqual([]);
    } finally {
      for (const trap of traps) trap.unsubscribe();
    }
  });

  it("cannot answer for billing-service: a spoofed 'verified card' reply racing the real one is ignored", async () => {
    const member = await signUp(stack.url);
    const spoofs: string[] = [];
    const readByOthers: boolean[] = [];
    // Every request on the subject reaches the spoofer too (a plain subscription, outside the queue group), and it
    // answers first: in clear, and sealed with a stolen listings-service key. It cannot read the request, sealed for
    // billing-service (ADR 0066); the worst case is granted it anyway: the packet id, read with billing's own key.
    const spoofer = nc.subscribe(subjectOf(RPC.billing.paymentMethodStatus), {
      callback: (_error, msg: Msg) => {
        try {
          openRequest(stack.env, 'listings-service', msg);
          readByOthers.push(true);
        } catch {
          readByOthers.push(false);
        }
        const { id } = codec.decode(openRequest(stack.env, 'billing-service', msg)) as { id: string };
        const lie = { id, response: { verified: true, last4: '4242', saved_at: new Date().toISOString() }, isDisposed: true };
        msg.respond(codec.encode(lie));
        respondSigned(stack.env, 'listings-service', msg, lie, 'billing-service');
        spoofs.push(id);
      },
    });
    await nc.flush();
    try {
      const answer = await get(`${stack.url}/api/user/payment-method`, bearer(member.token));
      expect(spoofs).toHaveLength(1);
      expect(readByOthers).toEqual([false]);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ verified: false, last4: null });
    } finally {
      spoofer.unsubscribe();
    }
  });

  it('hears no password, access token, one-time token or email on any subject, inboxes and the event stream included (ADR 0066)', async () => {
    const heard: Array<{ subject: string; text: string }> = [];
    const sniffer = await connect({ servers: stack.env.NATS_URL });
    sniffer.subscribe('>', { callback: (_error, msg) => heard.push({ subject: msg.subject, text: Buffer.from(msg.data).toString('latin1') }) });
    await sniffer.flush();
    try {
      // Registration, its verification link, login, a password reset by email, a password change: every secret a member has.
      const member = await signUp(stack.url);
      await post(`${stack.url}/api/auth/forgot-password`, { email: member.email });
      const resetSubject = eventSubject(stack.env.EVENTS_PREFIX, 'user.password_reset_requested');
      const resetToken = await eventually(async () => {
        const sent = heard.find((message) => message.subject === resetSubject);
        expect(sent).toBeDefined();
        return (await openedEvent<'user.password_reset_requested'>(stack.env, JSON.parse(sent!.text))).payload.token;
      });
      const reset = `${member.password}-reset`;
      expect((await post(`${stack.url}/api/auth/reset-password`, { token: resetToken, new_password: reset })).status).toBe(200);
      const login = await post(`${stack.url}/api/auth/login`, { login: member.email, password: reset });
      expect(login.status).toBe(200);
      const changed = `${member.password}-changed`;
      const change = await call('PATCH', `${stack.url}/api/user/password`, { current_password: reset, new_password: changed }, bearer(login.body.access_token));
      expect(change.status).toBe(200);
      // A marker request after them all: once it is heard, everything before it was.
      await get(`${stack.url}/api/auth/me`, bearer(change.body.access_token));
      await sniffer.flush();
      const secrets = [member.password, reset, changed, member.token, login.body.access_token, change.body.access_token, resetToken, member.email];
      expect(heard.filter((message) => message.subject.startsWith('_INBOX.')).length).toBeGreaterThan(0);
      expect(heard.some((message) => message.subject === resetSubject)).toBe(true);
      for (const secret of secrets) expect(heard.filter((message) => message.text.includes(secret)).map((message) => message.subject)).toEqual([]);
    } finally {
      await sniffer.close();
    }
  });

  it('cannot make a member an admin through Redis: an unsigned state, or the admin\'s own signed one copied over, counts for nothing', async () => {
    const member = await signUp(stack.url);
    const me = (await get(`${stack.url}/api/auth/me`, bearer(member.token))).body as { id: string };
    const admin = (await get(`${stack.url}/api/auth/me`, bearer(adminToken))).body as { id: string };
    const redis = new Redis(stack.env.REDIS_URL);
    try {
      const key = accountStateKey(stack.env.REDIS_KEY_PREFIX, me.id);
      const adminState = await redis.get(accountStateKey(stack.env.REDIS_KEY_PREFIX, admin.id));
      expect(adminState).toEqual(expect.any(String));
      for (const forged of [JSON.stringify({ token_version: 0, status: 'active', role: 'admin', email_verified: true }), adminState!]) {
        await redis.set(key, forged, 'EX', 300);
        // Every process keeps a state a few seconds (ADR 0057): a notice as auth-service sends them drops the member's.
        nc.publish(`${stack.env.NATS_SUBJECT_PREFIX}identity.changed`, JSON.stringify({ users: [me.id] }));
        await nc.flush();
        expect((await get(`${stack.url}/api/admin/stats`, bearer(member.token))).status).toBe(403);
        expect((await get(`${stack.url}/api/auth/me`, bearer(member.token))).body).toMatchObject({ id: me.id, role: 'regular' });
        // The forged value did not stay: the reader that met it put auth-service's answer in its place.
        expect(JSON.parse((await redis.get(key)) ?? '{}')).toMatchObject({ v: { role: 'regular' }, sig: expect.any(String) });
      }
    } finally {
      redis.disconnect();
    }
  });

  it('with a stolen billing-service key may do only what billing-service may', async () => {
    // Its own calls are answered...
    expect(await ask(RPC.auth.publicProfiles, { user_ids: [randomUUID()] }, 'billing-service')).toBeNull();
    // ...nothing else: another service's directory, the admin counts, a listing's sale terms.
    expect(await ask(RPC.auth.contacts, { user_ids: [randomUUID()] }, 'billing-service')).toBe(403);
    expect(await ask(RPC.auth.stats, {}, 'billing-service')).toBe(403);
    expect(await ask(RPC.listings.saleTerms, { listing_id: randomUUID() }, 'billing-service')).toBe(403);
    // And an event it does not write (bidding-service's bid.accepted) is refused by its consumers, billing-service's own included.
    const before = await deadLetters('billing-service');
    const buyer = randomUUID();
    await inject(
      'bid.accepted',
      { bid_id: randomUUID(), listing_id: randomUUID(), listing_title: 'x', website_url: null, seller_id: randomUUID(), buyer_id: buyer, amount: 5, kind: 'bid', sale: 'auction_win', accepted_at: new Date().toISOString() },
      (event) => signedEventHeaders(stack.env, event, 'billing-service'),
    );
    await eventually(async () => expect(await deadLetters('billing-service')).toBe(before + 1), 20_000);
  });
});
