import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { WebSocket } from 'ws';
import { liveListingPath } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, post, signUp as registerUser, startStack, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';
import { startTestTracing, type TestTracing } from '../support/tracing';

const ADMIN = { email: 'trace-admin@example.com', password: 'trace-admin-pass-1' };

const attribute = (span: ReadableSpan, ...names: string[]) => names.map((name) => span.attributes[name]).find((value) => value !== undefined);
const isPostgres = (span: ReadableSpan) => attribute(span, 'db.system', 'db.system.name') === 'postgresql';

/**
 * One bid is one trace (ADR 0049): the gateway's HTTP span, its NATS request, bidding-service's handler with its
 * PostgreSQL queries, the outbox relay's publish of bid.placed, the JetStream consumers, the websocket frames and the
 * email job, each a child of the step before it. Every process of the stack runs in this jest process, sharing one
 * tracer provider with an in-memory exporter.
 */
describe('a bid traced from the HTTP request to the websocket frame and the email job', () => {
  let tracing: TestTracing;
  let stack: Stack;
  let socket: WebSocket | undefined;

  beforeAll(async () => {
    tracing = startTestTracing();
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'notifications'],
      // The bid's email is the seller's digest (ADR 0056): mailed a second after the bid here, not ten minutes.
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0', SELLER_BID_DIGEST_INTERVAL_MS: '1000' },
    });
  });
  afterAll(async () => {
    socket?.close();
    await stack?.stop();
    await tracing?.stop();
  });

  it('keeps every step of a bid in one trace with its parents', async () => {
    const adminToken = (await post(`${stack.url}/api/auth/login`, { login: ADMIN.email, password: ADMIN.password })).body.access_token as string;
    const seller = await registerUser(stack.url);
    const bidder = await registerUser(stack.url);
    const listing = await createLiveListing(stack.url, seller.token, adminToken);
    socket = new WebSocket(stack.url.replace(/^http/, 'ws') + liveListingPath(listing.id));
    const live = socket;
    await new Promise<void>((opened, failed) => {
      live.once('open', () => opened());
      live.once('error', failed);
    });
    // The feed may first carry the listing's approval (listing_updated); the bid's frame is the first new_bid.
    const frame = new Promise<Record<string, unknown>>((received) =>
      live.on('message', (data) => {
        let message: Record<string, unknown> | null = null;
        try {
          message = JSON.parse(data.toString()) as Record<string, unknown>;
        } catch {
          // Not a frame of ours: the assertion on the bid's frame below fails on a timeout, not an uncaught error.
        }
        if (message?.type === 'new_bid') received(message);
      }),
    );
    // The bidding service learns of the auction from listing.approved: until then a bid is refused (404).
    await eventually(async () => expect((await post(`${stack.url}/api/bids`, { listing_id: listing.id, amount: 8999 }, bearer(bidder.token))).status).toBe(400), 15_000);

    // A caller's traceparent is ignored: the gateway starts the trace and decides its sampling itself.
    const forged = '00-0123456789abcdef0123456789abcdef-0123456789abcdef-01';
    const placed = await post(`${stack.url}/api/bids`, { listing_id: listing.id, amount: 9000 }, { ...bearer(bidder.token), traceparent: forged });
    expect(placed.status).toBe(201);
    expect(await frame).toMatchObject({ type: 'new_bid', data: { current_bid: 9000 } });

    const http = tracing.spans().find((span) => span.kind === SpanKind.SERVER && span.name === 'POST /api/bids' && Number(attribute(span, 'http.response.status_code', 'http.status_code')) === 201);
    if (!http) throw new Error('no HTTP span for the accepted bid');
    const traceId = http.spanContext().traceId;
    expect(http.parentSpanContext).toBeUndefined();
    expect(traceId).not.toBe('0123456789abcdef0123456789abcdef');
    expect(http.attributes['http.route']).toBe('/api/bids');

    const inTrace = () => tracing.spans().filter((span) => span.spanContext().traceId === traceId);
    const childrenOf = (parent: ReadableSpan, match: (span: ReadableSpan) => boolean) =>
      inTrace().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId && match(span));
    const descendantsOf = (root: ReadableSpan): ReadableSpan[] => {
      const below = inTrace().filter((span) => span.parentSpanContext?.spanId === root.spanContext().spanId);
      return [...below, ...below.flatMap(descendantsOf)];
    };
    const one = (spans: ReadableSpan[], what: string) => {
      if (spans.length !== 1) throw new Error(`expected one ${what}, found ${spans.length}: ${inTrace().map((s) => s.name).join(', ')}`);
      return spans[0];
    };

    // Gateway → NATS request → bidding-service's handler, whose PostgreSQL statements write the bid and its outbox row.
    const request = one(childrenOf(http, (span) => span.name === 'bidding.place_bid request' && span.kind === SpanKind.CLIENT), 'NATS client span');
    const handler = one(childrenOf(request, (span) => span.name === 'bidding.place_bid' && span.kind === SpanKind.SERVER), 'bidding-service server span');
    expect(descendantsOf(handler).filter(isPostgres).length).toBeGreaterThan(0);
    expect(descendantsOf(handler).filter(isPostgres).some((span) => /INSERT INTO outbox/.test(String(attribute(span, 'db.statement', 'db.query.text'))))).toBe(true);

    // The outbox relay publishes bid.placed in the handler's trace; consumers, the live feed and the email job follow.
    await eventually(async () => {
      const publish = one(descendantsOf(handler).filter((span) => span.name === 'bid.placed publish' && span.kind === SpanKind.PRODUCER), 'bid.placed publish span');
      const consumers = childrenOf(publish, (span) => span.name === 'bid.placed process' && span.kind === SpanKind.CONSUMER);
      const groups = consumers.map((span) => span.attributes['messaging.consumer.group.name']);
      expect(groups).toEqual(expect.arrayContaining(['notifications-service', 'listings-service']));
      one(childrenOf(publish, (span) => span.name === 'live frames send' && span.attributes['live.sockets'] === 1), 'websocket frame span');
      const notifications = consumers.find((span) => span.attributes['messaging.consumer.group.name'] === 'notifications-service')!;
      const emailJob = one(
        descendantsOf(notifications).filter((span) => span.name === 'email job bid_digest' && span.kind === SpanKind.CONSUMER),
        'email job span',
      );
      expect(emailJob.attributes['email.kind']).toBe('bid_digest');
    }, 20_000);

    // Nothing of the bid strayed into another trace: every span of this trace descends from the HTTP span.
    expect(inTrace().filter((span) => span !== http && !descendantsOf(http).includes(span))).toEqual([]);
  });

  it('keeps the one-time token of a link out of every span', async () => {
    const secret = `onetime${Date.now()}TOKENVALUE`;
    await post(`${stack.url}/api/auth/verify-email?token=${secret}`, {});
    const attributesOf = () => tracing.spans().map((span) => JSON.stringify(span.attributes));
    // The request was traced (its URL is on its span), so the check below looks at a real span.
    await eventually(async () => expect(attributesOf().some((text) => text.includes('verify-email') && text.includes('token=REDACTED'))).toBe(true), 10_000);
    expect(attributesOf().filter((text) => text.includes(secret))).toEqual([]);
  });
});
