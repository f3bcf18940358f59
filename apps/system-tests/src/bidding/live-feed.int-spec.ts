import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import { WebSocket } from 'ws';
import { liveListingPath, type EventEnvelope, type EventName, type EventPayloads, type LiveMessage } from '@market/contracts';
import { eventSubject } from '@market/server-kit';
import { eventually, signedEventHeaders } from '@market/server-kit/testing';
import { get, startStack, type Stack } from '../support/start-stack';

interface Feed {
  ws: WebSocket;
  frames: LiveMessage[];
  closed: Promise<number>;
}

const wsUrl = (base: string, path: string) => base.replace(/^http/, 'ws') + path;

/** Opens a live feed socket; rejects with the status when the handshake is refused. */
function openFeed(base: string, listingId: string, origin?: string): Promise<Feed> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(base, liveListingPath(listingId)), origin ? { origin } : {});
    const feed: Feed = { ws, frames: [], closed: new Promise((done) => ws.once('close', (code) => done(code))) };
    ws.on('message', (data) => feed.frames.push(JSON.parse(data.toString()) as LiveMessage));
    ws.once('open', () => resolve(feed));
    ws.once('unexpected-response', (req, res) => {
      req.destroy();
      reject(new Error(`handshake refused: ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** The status a websocket handshake on `path` gets (101 when it opens), with the refusal's JSON body. */
function handshake(base: string, path: string, origin?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(base, path), origin ? { origin } : {});
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: null });
    });
    ws.once('unexpected-response', (req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
    });
    ws.once('error', reject);
  });
}

describe('live listing feed (two gateways)', () => {
  let stack: Stack;
  let nc: NatsConnection;
  let stopped = false;
  const codec = JSONCodec<EventEnvelope>();
  const feeds: Feed[] = [];

  const open = async (gateway: number, listingId: string, origin?: string) => {
    const feed = await openFeed(stack.urls[gateway], listingId, origin);
    feeds.push(feed);
    return feed;
  };

  /** Publishes an event as the outbox relay does: the JSON envelope on `${EVENTS_PREFIX}.${name}`. */
  const publish = async <N extends EventName>(name: N, payload: EventPayloads[N], id: string = randomUUID()) => {
    const envelope: EventEnvelope<N> = { id, name, occurred_at: new Date().toISOString(), request_id: null, payload };
    nc.publish(eventSubject(stack.env.EVENTS_PREFIX, name), codec.encode(envelope), { headers: signedEventHeaders(stack.env, envelope as EventEnvelope) });
    await nc.flush();
  };

  const bidPlaced = (listingId: string, extended: boolean): EventPayloads['bid.placed'] => ({
    bid_id: randomUUID(),
    listing_id: listingId,
    bidder_id: randomUUID(),
    bidder_name: 'alice',
    amount: 1250,
    current_bid: 1250,
    bid_count: 4,
    reserve_met: true,
    expires_at: '2026-06-01T12:10:00.000Z',
    extended,
    created_at: '2026-06-01T12:00:00.000Z',
    seller_id: randomUUID(),
    listing_title: 'A SaaS',
    previous_leader_id: null,
  });

  // Events from one publisher reach a gateway in order: once a later event for `listingId` has arrived on `feed`,
  // anything earlier that was going to arrive has, so absence can be asserted without sleeping.
  const fence = async (feed: Feed, listingId: string) => {
    const before = feed.frames.length;
    await publish('listing.deleted', { listing_id: listingId, seller_id: randomUUID(), deleted_by: randomUUID() });
    const isFence = (frame: LiveMessage) => frame.type === 'listing_updated' && frame.data.status === 'deleted';
    await eventually(() => expect(feed.frames.slice(before).some(isFence)).toBe(true));
    return feed.frames.slice(before);
  };

  beforeAll(async () => {
    stack = await startStack({
      gateways: 2,
      services: ['auth'],
      env: { PUBLIC_URL: 'https://market.example/app', WS_ALLOWED_ORIGINS: 'http://localhost:5173' },
    });
    nc = await connect({ servers: stack.env.NATS_URL });
  });

  afterAll(async () => {
    for (const feed of feeds) feed.ws.terminate();
    await nc?.close();
    if (!stopped) await stack?.stop();
  });

  it("relays bid.placed to that listing's sockets on every gateway, with auction_extended on a soft close", async () => {
    const [listing, other] = [randomUUID(), randomUUID()];
    const onFirst = await open(0, listing);
    const onSecond = await open(1, listing);
    const otherListing = await open(1, other);

    const bid = bidPlaced(listing, true);
    await publish('bid.placed', bid);
    const expected: LiveMessage[] = [
      {
        type: 'new_bid',
        data: {
          listing_id: listing,
          bid: { id: bid.bid_id, bidder_name: 'alice', amount: 1250, created_at: '2026-06-01T12:00:00.000Z' },
          current_bid: 1250,
          bid_count: 4,
          reserve_met: true,
          expires_at: '2026-06-01T12:10:00.000Z',
        },
      },
      { type: 'auction_extended', data: { listing_id: listing, expires_at: '2026-06-01T12:10:00.000Z' } },
    ];
    await eventually(() => {
      expect(onFirst.frames).toEqual(expected);
      expect(onSecond.frames).toEqual(expected);
    });

    // A bid that does not move the end is only a new_bid.
    await publish('bid.placed', bidPlaced(listing, false));
    await eventually(() => expect(onSecond.frames.map((frame) => frame.type)).toEqual(['new_bid', 'auction_extended', 'new_bid']));

    expect(await fence(otherListing, other)).toEqual([
      { type: 'listing_updated', data: { listing_id: other, status: 'deleted', featured: null, expires_at: null, buy_now_price: null } },
    ]);
    expect(otherListing.frames).toHaveLength(1);
  });

  it('relays sales, closes and listing changes, and never sends the reserve', async () => {
    const listing = randomUUID();
    const feed = await open(1, listing);
    await publish('listing.updated', {
      listing_id: listing,
      seller_id: randomUUID(),
      title: 'A SaaS',
      website_url: 'https://saas.example.com',
      status: 'active',
      featured: true,
      listing_type: 'auction',
      auction_type: 'manual',
      starting_price: 500,
      reserve_price: 424242,
      buy_now_price: 4500,
      expires_at: '2026-06-08T12:00:00.000Z',
      updated_at: new Date().toISOString(),
    });
    await publish('bid.accepted', {
      bid_id: randomUUID(),
      listing_id: listing,
      listing_title: 'A SaaS',
      website_url: 'https://saas.example.com',
      seller_id: randomUUID(),
      buyer_id: randomUUID(),
      amount: 3000,
      kind: 'bid',
      sale: 'bid_accepted',
      accepted_at: '2026-06-02T08:00:00.000Z',
    });
    await publish('auction.closed', {
      listing_id: listing,
      listing_title: 'A SaaS',
      seller_id: randomUUID(),
      outcome: 'sold',
      reason: 'accepted',
      winning_bid_id: randomUUID(),
      buyer_id: randomUUID(),
      amount: 3000,
      closed_at: '2026-06-02T08:00:00.000Z',
      pending_bids: 0,
    });
    await eventually(() =>
      expect(feed.frames).toEqual([
        { type: 'listing_updated', data: { listing_id: listing, status: 'active', featured: true, expires_at: '2026-06-08T12:00:00.000Z', buy_now_price: 4500 } },
        { type: 'listing_sold', data: { listing_id: listing, amount: 3000, sold_at: '2026-06-02T08:00:00.000Z' } },
        { type: 'listing_updated', data: { listing_id: listing, status: 'sold', featured: null, expires_at: null, buy_now_price: null } },
      ]),
    );
    for (const frame of feed.frames) expect(JSON.stringify(frame)).not.toMatch(/reserve|424242/);
  });

  it('shows viewers no price that bidding-service did not sign: unsigned, signed by another process, or altered (D25)', async () => {
    const listing = randomUUID();
    const feed = await open(0, listing);
    const subject = eventSubject(stack.env.EVENTS_PREFIX, 'bid.placed');
    const forged = (amount: number): EventEnvelope<'bid.placed'> => ({
      id: randomUUID(),
      name: 'bid.placed',
      occurred_at: new Date().toISOString(),
      request_id: null,
      payload: { ...bidPlaced(listing, false), amount, current_bid: amount },
    });
    const unsigned = forged(1);
    nc.publish(subject, codec.encode(unsigned));
    const byListings = forged(2);
    nc.publish(subject, codec.encode(byListings), { headers: signedEventHeaders(stack.env, byListings, 'listings-service') });
    const genuine = forged(3);
    nc.publish(subject, codec.encode({ ...genuine, payload: { ...genuine.payload, amount: 999_999, current_bid: 999_999 } }), { headers: signedEventHeaders(stack.env, genuine) });
    await nc.flush();
    expect(await fence(feed, listing)).toEqual([expect.objectContaining({ type: 'listing_updated' })]);
  });

  it('sends an event the relay published twice (same id) once', async () => {
    const listing = randomUUID();
    const feed = await open(0, listing);
    const id = randomUUID();
    const bid = bidPlaced(listing, false);
    await publish('bid.placed', bid, id);
    await publish('bid.placed', bid, id);
    await fence(feed, listing);
    expect(feed.frames.map((frame) => frame.type)).toEqual(['new_bid', 'listing_updated']);
  });

  it('relays a burst of bids taken in batches complete, each once, in price-version order, on every gateway', async () => {
    const listing = randomUUID();
    const sockets = [await open(0, listing), await open(1, listing)];
    const bids = Array.from({ length: 40 }, (_, i) => ({ ...bidPlaced(listing, false), amount: 1000 + i, current_bid: 1000 + i, bid_count: i + 1, price_version: i + 1 }));
    const envelopes = bids.map((payload): EventEnvelope<'bid.placed'> => ({ id: randomUUID(), name: 'bid.placed', occurred_at: new Date().toISOString(), request_id: null, payload }));
    // One write to NATS for the lot, every fourth event published twice (a relay republishing): they arrive together.
    for (const [i, envelope] of envelopes.entries()) {
      const headers = signedEventHeaders(stack.env, envelope);
      nc.publish(eventSubject(stack.env.EVENTS_PREFIX, 'bid.placed'), codec.encode(envelope), { headers });
      if (i % 4 === 0) nc.publish(eventSubject(stack.env.EVENTS_PREFIX, 'bid.placed'), codec.encode(envelope), { headers });
    }
    await nc.flush();
    for (const feed of sockets) {
      await fence(feed, listing);
      const prices = feed.frames.filter((frame) => frame.type === 'new_bid').map((frame) => (frame.data as { price_version?: number }).price_version);
      expect(prices).toEqual(bids.map((bid) => bid.price_version));
    }
  });

  it("checks the Origin: none, the gateway's own, PUBLIC_URL's and WS_ALLOWED_ORIGINS connect; others get 403", async () => {
    const path = liveListingPath(randomUUID());
    const own = new URL(stack.urls[1]).origin;
    for (const origin of [undefined, own, 'https://market.example', 'http://localhost:5173']) {
      expect(await handshake(stack.urls[1], path, origin)).toEqual({ status: 101, body: null });
    }
    for (const origin of ['https://evil.example', 'https://market.example.evil.example', 'null']) {
      expect(await handshake(stack.urls[1], path, origin)).toEqual({ status: 403, body: expect.objectContaining({ detail: 'Origin not allowed' }) });
    }
  });

  it('answers 400 to a bad listing id and 404 to other paths, and leaves plain HTTP alone', async () => {
    expect(await handshake(stack.url, '/ws/listings/not-a-uuid')).toEqual({ status: 400, body: expect.objectContaining({ detail: 'Not a valid listing id' }) });
    expect((await handshake(stack.url, '/ws/elsewhere')).status).toBe(404);
    expect((await handshake(stack.url, `/ws/listings/${randomUUID()}/more`)).status).toBe(404);
    expect((await get(`${stack.url}/healthz`)).status).toBe(200);
    // curl --http2 offers h2c on plain-HTTP requests: still answered as HTTP/1.1 by the app.
    const h2cOffer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${stack.url}/healthz`, { headers: { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(h2cOffer.status).toBe(200);
    expect(JSON.parse(h2cOffer.body)).toEqual(expect.objectContaining({ status: 'ok' }));
  });

  it('ignores small client frames and closes a socket that sends more than 1 KB', async () => {
    const listing = randomUUID();
    const feed = await open(0, listing);
    feed.ws.send('hello');
    expect(await fence(feed, listing)).toHaveLength(1);
    feed.ws.send('x'.repeat(1025));
    expect(await feed.closed).toBe(1009);
  });

  it('closes every open socket with 1001 when the stack stops, without hanging', async () => {
    const open1 = await open(0, randomUUID());
    const open2 = await open(1, randomUUID());
    stopped = true;
    const started = Date.now();
    await stack.stop();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await Promise.all([open1.closed, open2.closed])).toEqual([1001, 1001]);
  });
});

describe('live listing feed: one client address holds WS_MAX_SOCKETS_PER_ADDRESS sockets (ADR 0064)', () => {
  let stack: Stack;
  const feeds: Feed[] = [];

  beforeAll(async () => {
    stack = await startStack({ services: ['auth'], env: { WS_MAX_SOCKETS_PER_ADDRESS: '2' } });
  });
  afterAll(async () => {
    for (const feed of feeds) feed.ws.terminate();
    await stack?.stop();
  });

  /** The refusal of one more handshake: status, headers and body. */
  const refusal = () =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: unknown }>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(stack.url, liveListingPath(randomUUID())));
      ws.once('open', () => reject(new Error('the third socket opened')));
      ws.once('unexpected-response', (req, res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
        });
      });
      ws.once('error', reject);
    });

  it('answers the third with 429, Retry-After and the RateLimit headers, and takes one again once a socket closes', async () => {
    for (let i = 0; i < 2; i += 1) feeds.push(await openFeed(stack.url, randomUUID()));
    const refused = await refusal();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ detail: 'Too many live connections from this address; close some, then try again' });
    expect(refused.headers).toMatchObject({
      'retry-after': '30',
      'ratelimit-policy': '"live-sockets";q=2;qu="concurrent-requests"',
      ratelimit: '"live-sockets";r=0;t=30',
    });

    feeds[0].ws.close();
    await feeds[0].closed;
    // The gateway counts the socket gone once its close reaches it: poll for the handshake that opens.
    await eventually(async () => {
      const feed = await openFeed(stack.url, randomUUID());
      feeds.push(feed);
    });
  });
});
