import type { LiveMessage } from '@market/contracts';
import { liveListingUrl, liveReaction, openLiveConnection, parseLiveMessage, reconnectDelay, type LiveSocket } from './live-listing';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';

const newBid = (listingId = ID): LiveMessage => ({
  type: 'new_bid',
  data: {
    listing_id: listingId,
    bid: { id: 'b9', bidder_name: 'ann_buyer', amount: 2050, created_at: '2026-11-22T12:00:00Z' },
    current_bid: 2050,
    bid_count: 2,
    reserve_met: true,
    expires_at: '2026-11-25T12:00:00Z',
  },
});

describe('liveListingUrl', () => {
  it('uses the page origin, wss: under https and ws: otherwise', () => {
    expect(liveListingUrl(ID, { protocol: 'https:', host: 'market.example' })).toBe(`wss://market.example/ws/listings/${ID}`);
    expect(liveListingUrl(ID, { protocol: 'http:', host: '127.0.0.1:3000' })).toBe(`ws://127.0.0.1:3000/ws/listings/${ID}`);
  });
});

describe('parseLiveMessage', () => {
  it('reads the four message types of D21', () => {
    expect(parseLiveMessage(JSON.stringify(newBid()))).toEqual(newBid());
    const extended = { type: 'auction_extended', data: { listing_id: ID, expires_at: '2026-11-25T12:10:00Z' } };
    expect(parseLiveMessage(JSON.stringify(extended))).toEqual(extended);
  });
  it('ignores anything else', () => {
    for (const raw of ['not json', '"text"', 'null', '{"type":"chat","data":{}}', '{"type":"new_bid"}', '{"type":"new_bid","data":3}', new ArrayBuffer(4)]) {
      expect(parseLiveMessage(raw)).toBeNull();
    }
  });
});

describe('liveReaction', () => {
  it('reloads the listing and its bid history on new_bid, showing the new price at once', () => {
    expect(liveReaction(ID, newBid())).toEqual({
      patch: { current_bid: 2050, bid_count: 2, reserve_met: true, expires_at: '2026-11-25T12:00:00Z' },
      reload: ['Listing', 'Bids'],
    });
  });
  it('shows a repricing at once, lower price and count included, and reloads the listing and its bids (ADR 0038)', () => {
    const repriced: LiveMessage = { type: 'bids_repriced', data: { listing_id: ID, current_bid: null, bid_count: 0, reserve_met: false, price_version: 7 } };
    expect(parseLiveMessage(JSON.stringify(repriced))).toEqual(repriced);
    expect(liveReaction(ID, repriced)).toEqual({ patch: { current_bid: null, bid_count: 0, reserve_met: false, price_version: 7 }, reload: ['Listing', 'Bids'] });
    const versioned: LiveMessage = { type: 'new_bid', data: { ...(newBid().data as object), price_version: 8 } } as LiveMessage;
    expect(liveReaction(ID, versioned)?.patch).toMatchObject({ bid_count: 2, price_version: 8 });
  });
  it('never takes a reserve amount from a frame (D7)', () => {
    const leaky = { type: 'new_bid', data: { ...newBid().data, reserve_price: 9000 } } as unknown as LiveMessage;
    expect(JSON.stringify(liveReaction(ID, leaky))).not.toContain('9000');
  });
  it('announces the new end of a soft-closed auction (D9)', () => {
    const reaction = liveReaction(ID, { type: 'auction_extended', data: { listing_id: ID, expires_at: '2026-11-25T12:10:00Z' } });
    expect(reaction).toEqual({ patch: { expires_at: '2026-11-25T12:10:00Z' }, reload: ['Listing'], extendedUntil: '2026-11-25T12:10:00Z' });
  });
  it('reloads the listing when it is sold or updated', () => {
    expect(liveReaction(ID, { type: 'listing_sold', data: { listing_id: ID, amount: 9000, sold_at: '2026-11-25T12:00:00Z' } })).toEqual({
      patch: { status: 'sold' },
      reload: ['Listing', 'Bids'],
    });
    const updated: LiveMessage = { type: 'listing_updated', data: { listing_id: ID, status: 'paused', featured: null, expires_at: null, buy_now_price: null } };
    expect(liveReaction(ID, updated)).toEqual({ patch: { status: 'paused' }, reload: ['Listing'] });
    const deleted: LiveMessage = { type: 'listing_updated', data: { ...updated.data, status: 'deleted' } };
    expect(liveReaction(ID, deleted)).toEqual({ patch: {}, reload: ['Listing'] });
  });
  it('ignores messages about another listing', () => {
    expect(liveReaction(ID, newBid('another'))).toBeNull();
  });
  it('knows its listing under a URL id typed in upper case', () => {
    expect(liveReaction(ID.toUpperCase(), newBid())?.patch).toMatchObject({ current_bid: 2050, bid_count: 2 });
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s up to 30 s, with jitter between half and all of it', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((attempt) => reconnectDelay(attempt, () => 1))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(reconnectDelay(3, () => 0)).toBe(4000);
  });
});

class FakeSocket implements LiveSocket {
  onopen: LiveSocket['onopen'] = null;
  onmessage: LiveSocket['onmessage'] = null;
  onclose: LiveSocket['onclose'] = null;
  onerror: LiveSocket['onerror'] = null;
  closedWith: number | undefined | null = null;
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code;
  }
  /** The server side: open, send a frame, drop the connection. */
  open() {
    this.onopen?.({});
  }
  send(frame: unknown) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
  drop() {
    this.onerror?.({});
    this.onclose?.({});
  }
}

describe('openLiveConnection', () => {
  let sockets: FakeSocket[];
  const setup = () => {
    const messages: LiveMessage[] = [];
    const onReconnect = jest.fn();
    const connection = openLiveConnection({
      url: `ws://host/ws/listings/${ID}`,
      onMessage: (message) => messages.push(message),
      onReconnect,
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      random: () => 1,
    });
    return { messages, onReconnect, connection };
  };

  beforeEach(() => {
    jest.useFakeTimers();
    sockets = [];
  });
  afterEach(() => jest.useRealTimers());

  it('opens the feed and passes on known messages only', () => {
    const { messages } = setup();
    expect(sockets.map((socket) => socket.url)).toEqual([`ws://host/ws/listings/${ID}`]);
    sockets[0].open();
    sockets[0].send(newBid());
    sockets[0].send('garbage');
    sockets[0].send({ type: 'chat', data: {} });
    expect(messages).toEqual([newBid()]);
  });

  it('reconnects with growing waits while the feed stays down, and reloads after it is back', () => {
    const { onReconnect } = setup();
    sockets[0].open();
    sockets[0].drop();
    jest.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1].drop(); // failed to connect: wait longer
    jest.advanceTimersByTime(1999);
    expect(sockets).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    expect(onReconnect).not.toHaveBeenCalled();
    sockets[2].open();
    expect(onReconnect).toHaveBeenCalledTimes(1);
  });

  it('retries quickly again after a connection that had stayed up', () => {
    setup();
    sockets[0].drop();
    jest.advanceTimersByTime(1000);
    sockets[1].drop();
    jest.advanceTimersByTime(2000);
    sockets[2].open();
    jest.advanceTimersByTime(10_000);
    sockets[2].drop();
    jest.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(4);
  });

  it('closes the socket on close() and never reconnects afterwards', () => {
    const { connection, messages } = setup();
    sockets[0].open();
    connection.close();
    expect(sockets[0].closedWith).toBe(1000);
    sockets[0].send(newBid());
    sockets[0].drop();
    jest.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(messages).toEqual([]);
  });

  it('cancels a planned retry on close()', () => {
    const { connection } = setup();
    sockets[0].drop();
    connection.close();
    jest.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(jest.getTimerCount()).toBe(0);
  });
});
