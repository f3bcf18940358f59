import { bidIncrement, minimumNextBid } from './increment.rules';

/** A step replayed by the reference model: a bid request as sent, or a bidder whose bids all left (ADR 0038). */
export type ProxyStep = { kind: 'bid'; bidder_id: string; amount: number; max_amount: number | null } | { kind: 'remove'; bidder_id: string };

/** The state the reference model finds after a replay (ADR 0055). */
export interface ProxyReplay {
  /** Whether each bid step was taken (removals count as taken), in order. */
  accepted: boolean[];
  price: number | null;
  leader_id: string | null;
}

interface Holder {
  bidder_id: string;
  max: number;
  /** The step at which the maximum last rose: the earlier wins a tie. */
  rose_at: number;
  /** The highest amount the bidder typed in a bid that was taken. */
  typed: number | null;
}

/** Price and leader from every holder at once, straight from the rule's words (ADR 0055). */
function fromScratch(terms: { starting_price: number; reserve_price: number | null }, holders: Iterable<Holder>): { price: number | null; leader: Holder | null } {
  const ranked = [...holders].sort((a, b) => b.max - a.max || a.rose_at - b.rose_at);
  const [leader, second] = ranked;
  if (!leader) return { price: null, leader: null };
  const candidates = [terms.starting_price, leader.typed ?? 0];
  if (second) candidates.push(Math.min(leader.max, second.max + bidIncrement(second.max)));
  if (terms.reserve_price !== null && leader.max >= terms.reserve_price) candidates.push(terms.reserve_price);
  return { price: Math.max(...candidates), leader };
}

/**
 * The proxy rule recomputed from scratch after every step (ADR 0055), independent of `decideProxyBid`: a reference for
 * property tests and for checking a benchmark's end state. A bid is taken when it reaches the minimum next bid over the
 * price all maximums so far imply (D6), or when the leader only raises their maximum (a higher `max_amount`, the amount
 * under that minimum). A bidder's maximum is the highest amount or `max_amount` they sent in a taken bid.
 */
export function replayProxyBids(terms: { starting_price: number; reserve_price: number | null }, steps: readonly ProxyStep[]): ProxyReplay {
  const holders = new Map<string, Holder>();
  const accepted: boolean[] = [];
  steps.forEach((step, index) => {
    if (step.kind === 'remove') {
      holders.delete(step.bidder_id);
      accepted.push(true);
      return;
    }
    const { price, leader } = fromScratch(terms, holders.values());
    const minimum = minimumNextBid(terms.starting_price, price);
    const maxOnly = leader?.bidder_id === step.bidder_id && step.max_amount !== null && step.amount < minimum;
    const taken = maxOnly
      ? (step.max_amount as number) > (leader as Holder).max
      : step.amount >= minimum && (step.max_amount === null || step.max_amount >= step.amount);
    accepted.push(taken);
    if (!taken) return;
    const held = holders.get(step.bidder_id) ?? { bidder_id: step.bidder_id, max: 0, rose_at: index, typed: null };
    const max = Math.max(held.max, step.amount, step.max_amount ?? 0);
    holders.set(step.bidder_id, {
      bidder_id: step.bidder_id,
      max,
      rose_at: max > held.max ? index : held.rose_at,
      typed: maxOnly ? held.typed : Math.max(held.typed ?? 0, step.amount),
    });
  });
  const { price, leader } = fromScratch(terms, holders.values());
  return { accepted, price, leader_id: leader?.bidder_id ?? null };
}
