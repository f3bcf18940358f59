import { repriceWithMaximums } from './proxy-reprice.rules';
import type { ProxyBidAttempt } from './proxy.rules';
import { NOW, SimulatedAuction } from './testing/proxy-auction.simulation';

const bid = (bidder_id: string, amount: number, max_amount: number | null = null): ProxyBidAttempt => ({ bidder_id, amount, max_amount });

describe('repriceWithMaximums: bids leaving a proxy auction (ADR 0038, ADR 0055)', () => {
  it('the leader removed: the remaining maximums decide the leader and the price', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    sale.place(bid('bob', 100, 300));
    sale.place(bid('cat', 150, 200));
    sale.place(bid('ann', 400, 1000));
    expect(sale.remove('ann')).toMatchObject({ leader_id: 'bob', current_bid: 205, add: null, withdraw: [] });
    expect(sale.closeWinner()).toMatchObject({ bidder_id: 'bob', amount: 205 });
  });

  it('the runner-up removed: the leader keeps the lead and their automatic bids above the new price leave', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    sale.place(bid('ann', 100, 1000));
    sale.place(bid('cat', 150));
    sale.place(bid('bob', 300, 500));
    expect(sale.auction.current_bid).toBe(505);
    const state = sale.remove('bob');
    expect(state).toMatchObject({ leader_id: 'ann', current_bid: 155, add: null, bid_count: 3 });
    expect(state.withdraw).toHaveLength(1);
    expect(sale.bids.map((b) => b.amount).sort((a, b) => a - b)).toEqual([100, 150, 155]);
    expect(sale.closeWinner()).toMatchObject({ bidder_id: 'ann', amount: 155 });
  });

  it('adds an automatic bid for the leader when none of theirs stands at the new price', () => {
    const at = (second: number) => new Date(NOW.getTime() + second * 1000);
    const standing = [
      { id: 'b1', bidder_id: 'bob', amount: 100, created_at: at(1), automatic: false },
      { id: 'c1', bidder_id: 'cat', amount: 150, created_at: at(2), automatic: false },
    ];
    const maximums = [
      { bidder_id: 'bob', max_amount: 300, set_at: at(1) },
      { bidder_id: 'cat', max_amount: 200, set_at: at(2) },
      // A maximum without a standing bid is ignored.
      { bidder_id: 'gone', max_amount: 9000, set_at: at(0) },
    ];
    expect(repriceWithMaximums({ starting_price: 100, reserve_price: 250 }, standing, maximums)).toEqual({
      current_bid: 250,
      bid_count: 3,
      leader_id: 'bob',
      reserve_met: true,
      minimum_next_bid: 255,
      withdraw: [],
      add: { bidder_id: 'bob', amount: 250 },
    });
  });

  it('without stored maximums it is the plain rule: the highest bid leads at its amount, the earlier on a tie', () => {
    const at = (second: number) => new Date(NOW.getTime() + second * 1000);
    const standing = [
      { id: 'late', bidder_id: 'bob', amount: 2000, created_at: at(9), automatic: false },
      { id: 'early', bidder_id: 'ann', amount: 2000, created_at: at(1), automatic: false },
      { id: 'low', bidder_id: 'cat', amount: 1500, created_at: at(0), automatic: false },
    ];
    expect(repriceWithMaximums({ starting_price: 1000, reserve_price: null }, standing, [])).toMatchObject({ current_bid: 2000, leader_id: 'ann', add: null, withdraw: [] });
  });

  it('a typed bid of the new leader stands as the floor, and nobody left means no price', () => {
    const sale = new SimulatedAuction({ starting_price: 100, reserve_price: null });
    sale.place(bid('bob', 450));
    sale.place(bid('ann', 500, 1000));
    expect(sale.remove('ann')).toMatchObject({ leader_id: 'bob', current_bid: 450, add: null, withdraw: [] });
    expect(sale.remove('bob')).toMatchObject({ leader_id: null, current_bid: null, bid_count: 0, reserve_met: true, minimum_next_bid: 100 });
  });
});
