import { forgetLiveStates, LIVE_STATUS_HOLD_MS, livePatch, rememberLive, withLiveState } from './live-state';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';

describe('live state over listing answers', () => {
  const api = { current_bid: 2000, bid_count: 1, reserve_met: false, expires_at: '2026-11-25T12:00:00Z', status: 'active' as const };
  afterEach(() => forgetLiveStates());

  it('lays the newest bid over an answer with fewer bids, and an answer with as many wins', () => {
    rememberLive(ID, { current_bid: 2100, bid_count: 3, reserve_met: true });
    rememberLive(ID, { current_bid: 2050, bid_count: 2, reserve_met: true }); // arrived late: older
    expect(livePatch(ID, api)).toEqual({ current_bid: 2100, bid_count: 3, reserve_met: true });
    expect(livePatch(ID, { ...api, current_bid: 2100, bid_count: 3 })).toEqual({});
    expect(livePatch(ID, { ...api, current_bid: 2300, bid_count: 4 })).toEqual({});
  });

  it('orders prices by their version when they carry one, so a rejection that lowers the count still wins (ADR 0038)', () => {
    const versioned = { ...api, current_bid: 2100, bid_count: 3, price_version: 3 };
    rememberLive(ID, { current_bid: 2050, bid_count: 2, reserve_met: false, price_version: 4 }); // the leader was rejected
    rememberLive(ID, { current_bid: 2100, bid_count: 3, reserve_met: true, price_version: 3 }); // its bid's news, late
    expect(livePatch(ID, versioned)).toEqual({ current_bid: 2050, bid_count: 2, reserve_met: false, price_version: 4 });
    rememberLive(ID, { current_bid: null, bid_count: 0, reserve_met: false, price_version: 5 });
    expect(livePatch(ID, versioned)).toEqual({ current_bid: null, bid_count: 0, reserve_met: false, price_version: 5 });
    // An answer at that version or later is shown as it is.
    expect(livePatch(ID, { ...api, current_bid: null, bid_count: 0, price_version: 5 })).toEqual({});
    expect(livePatch(ID, { ...api, current_bid: 2000, bid_count: 1, price_version: 6 })).toEqual({});
  });

  it('keeps the later end (soft close) and never an earlier one', () => {
    rememberLive(ID, { expires_at: '2026-11-25T12:10:00Z' });
    rememberLive(ID, { expires_at: '2026-11-25T12:05:00Z' });
    expect(livePatch(ID, api)).toEqual({ expires_at: '2026-11-25T12:10:00Z' });
    expect(livePatch(ID, { ...api, expires_at: '2026-11-25T12:15:00Z' })).toEqual({});
  });

  it('holds a live status for a while, and sold for good', () => {
    rememberLive(ID, { status: 'paused' }, 0);
    expect(livePatch(ID, api, LIVE_STATUS_HOLD_MS - 1)).toEqual({ status: 'paused' });
    // A change the page missed must not be hidden forever.
    expect(livePatch(ID, api, LIVE_STATUS_HOLD_MS)).toEqual({});
    rememberLive(ID, { status: 'sold' }, 0);
    rememberLive(ID, { status: 'active' }, 1);
    expect(livePatch(ID, api, 10 * LIVE_STATUS_HOLD_MS)).toEqual({ status: 'sold' });
  });

  it('corrects an answer that is behind and forgets what an answer has caught up with', () => {
    rememberLive(ID, { current_bid: 2050, bid_count: 2, expires_at: '2026-11-25T12:10:00Z' });
    expect(withLiveState(ID.toUpperCase(), api)).toEqual({ ...api, current_bid: 2050, bid_count: 2, expires_at: '2026-11-25T12:10:00Z' });
    // Caught up on the bid but not on the end: only the end is still laid over.
    const bidKnown = { ...api, current_bid: 2050, bid_count: 2 };
    expect(withLiveState(ID, bidKnown)).toEqual({ ...bidKnown, expires_at: '2026-11-25T12:10:00Z' });
    expect(withLiveState(ID, { ...bidKnown, expires_at: '2026-11-25T12:10:00Z' })).toEqual({ ...bidKnown, expires_at: '2026-11-25T12:10:00Z' });
    // Nothing is left: even an older answer now passes as it is.
    expect(withLiveState(ID, api)).toBe(api);
  });

  it('leaves other listings alone', () => {
    rememberLive(ID, { current_bid: 2050, bid_count: 2 });
    expect(withLiveState('another', api)).toBe(api);
  });
});
