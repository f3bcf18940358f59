// The proxy-rule replay of npm run bench:bids' end-state checks (ADR 0055, D6): the 2xx answers of one auction, put in
// the order the row lock decided them, are decided again by the domain rule from the state the earlier ones left; the
// bids it records must be the stored rows, one for one (bidder, amount, automatic). So every automatic bid (the system's,
// for a maximum holder, with no 2xx of its own) is checked against the rule rather than skipped, and the final price
// and leader are compared with the independent reference model (replayProxyBids).
import { loadBuilt } from './build.mjs';

const domain = () => loadBuilt('libs/domain/dist/index.js');

/**
 * The lock order of an auction's 2xx answers: by the bid count each answer reports (no bid leaves during a storm, so
 * it is the auction's position), and within one count the step that recorded the bids before the leader's raises of
 * its maximum that recorded nothing (they report the same count).
 */
export function lockOrder(steps) {
  return [...steps].sort((a, b) => a.bidCount - b.bidCount || Number(a.raisedOnly) - Number(b.raisedOnly) || a.answeredAt - b.answeredAt);
}

/** The standing the service reads under the lock (ADR 0055): the two highest maximums (earlier first on a tie) and the caller's. */
function standingOf(maximums, callerId) {
  const ranked = [...maximums.values()].sort((a, b) => b.max_amount - a.max_amount || a.set_at.getTime() - b.set_at.getTime());
  return { leader: ranked[0] ?? null, runner_up: ranked[1] ?? null, caller: maximums.get(callerId) ?? null };
}

/**
 * Replays one auction. `auction` is its bidding.auctions row (terms, and the final price); `stored` its bids in
 * created_at order (the database clock at each insert, taken under the lock); `steps` its 2xx answers (acceptedBid).
 * `rules` is libs/domain (its build by default). Returns {problem (the first mismatch, or null), typed, automatic (stored
 * bids the replay matched), reference}.
 */
export function replayAuction(auction, stored, steps, rules = domain()) {
  const { decideProxyBid, replayProxyBids } = rules;
  const state = { ...auction, status: 'active', current_bid: null, bid_count: 0 };
  const maximums = new Map();
  const byId = new Map(stored.map((bid) => [bid.id, bid]));
  let position = 0;
  let sequence = 0;
  let typed = 0;
  let automatic = 0;
  const ordered = lockOrder(steps);
  for (const [index, step] of ordered.entries()) {
    const at = `answer ${index + 1} of ${ordered.length} (bid count ${step.bidCount})`;
    const decision = decideProxyBid(state, standingOf(maximums, step.bidderId), { bidder_id: step.bidderId, amount: step.typed, max_amount: step.maxAmount }, new Date(step.answeredAt));
    if (!decision.accepted) return { problem: `${at}: answered 2xx, but the rule refuses it (${decision.reason})`, typed, automatic };
    if (decision.current_bid !== step.currentBid || decision.bid_count !== step.bidCount) {
      return { problem: `${at}: answered price ${step.currentBid} and count ${step.bidCount}, the rule gives ${decision.current_bid} and ${decision.bid_count}`, typed, automatic };
    }
    for (const expected of decision.bids) {
      const row = stored[position];
      if (!row || row.bidder_id !== expected.bidder_id || row.amount !== expected.amount || row.automatic !== expected.automatic) {
        const found = row ? `${row.automatic ? 'automatic' : 'typed'} $${row.amount}` : 'nothing';
        return { problem: `${at}: stored bid ${position + 1} is ${found}, the rule records ${expected.automatic ? 'automatic' : 'typed'} $${expected.amount}`, typed, automatic };
      }
      if (row.automatic) automatic += 1;
      else typed += 1;
      position += 1;
    }
    const named = byId.get(step.id);
    if (!named || named.bidder_id !== step.bidderId) return { problem: `${at}: its bid ${step.id} is not a stored bid of its bidder`, typed, automatic };
    state.current_bid = decision.current_bid;
    state.bid_count = decision.bid_count;
    const mine = decision.caller_maximum;
    const held = maximums.get(step.bidderId);
    // The set time moves only when the maximum rose (SAVE_MAXIMUM_SQL); a sequence stands in for the database clock.
    maximums.set(step.bidderId, {
      bidder_id: step.bidderId,
      max_amount: mine.max_amount,
      set_at: mine.raised || !held ? new Date(++sequence) : held.set_at,
      proxy: mine.proxy,
    });
  }
  if (position !== stored.length) return { problem: `${stored.length - position} stored bids after the last 2xx answer's`, typed, automatic };
  const reference = replayProxyBids(
    { starting_price: auction.starting_price, reserve_price: auction.reserve_price },
    ordered.map((step) => ({ kind: 'bid', bidder_id: step.bidderId, amount: step.typed, max_amount: step.maxAmount })),
  );
  const lastBidder = stored.at(-1)?.bidder_id ?? null;
  if (reference.accepted.some((taken) => !taken)) return { problem: 'the reference model refuses a 2xx answer', typed, automatic, reference };
  if (reference.price !== auction.current_bid || reference.leader_id !== lastBidder) {
    return { problem: `stored price ${auction.current_bid} led by ${lastBidder}; the reference model: ${reference.price} led by ${reference.leader_id}`, typed, automatic, reference };
  }
  return { problem: null, typed, automatic, reference };
}
