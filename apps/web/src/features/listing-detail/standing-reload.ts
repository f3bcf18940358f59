import type { MyStanding } from '@market/contracts';

/**
 * Whether a live price change can change what the viewer's standing says (ADR 0060): only when they have a stake in
 * the listing, known from the server's answer or from a bid they placed here in this session. A viewer with no bid
 * there cannot have been passed, so their form never asks again: thousands of watchers of a hot auction cost nothing.
 */
export function hasStake(standing: Pick<MyStanding, 'has_bid'> | undefined, placedHere: boolean): boolean {
  return placedHere || standing?.has_bid === true;
}

/**
 * Wraps a reload so that at most one runs at a time (ADR 0060): asks made while one runs fold into a single trailing
 * run after it, whose answer is newer than every price change seen meanwhile. A burst of live bids costs two reads.
 */
export function coalescedReload(load: () => PromiseLike<unknown>): () => void {
  let running = false;
  let again = false;
  const finish = () => {
    running = false;
    if (again) run();
  };
  const run = () => {
    running = true;
    again = false;
    let pending: PromiseLike<unknown>;
    try {
      pending = load();
    } catch {
      pending = Promise.resolve();
    }
    Promise.resolve(pending).then(finish, finish);
  };
  return () => {
    if (running) again = true;
    else run();
  };
}

/**
 * Reads through `refetch` so that the answer was asked no earlier than this call: RTK Query joins a read already in
 * flight (one a bid's invalidation started, say), whose answer may predate the price change, so that one is awaited and
 * then asked again (ADR 0060).
 */
export async function freshRead(refetch: () => PromiseLike<{ startedTimeStamp?: number }>, now: () => number = Date.now): Promise<void> {
  const askedAt = now();
  const first = await refetch();
  if (first.startedTimeStamp !== undefined && first.startedTimeStamp < askedAt) await refetch();
}
