import { useEffect, useMemo, useRef } from 'react';
import type { MyStanding } from '@market/contracts';
import { useMyStandingQuery } from '../../api/bids.api';
import { coalescedReload, freshRead, hasStake } from './standing-reload';

/**
 * The signed-in viewer's own standing on an automatic auction (ADR 0060), from GET /api/listings/{id}/my-standing.
 * It is asked once; a live price change asks again only when the viewer has a stake (`placedHere`: they bid from this
 * page), coalesced to one read in flight and one after it. Null while unknown or when `enabled` is false.
 */
export function useMyStanding(listingId: string, enabled: boolean, price: number | null, placedHere: boolean): MyStanding | null {
  const { data, refetch } = useMyStandingQuery(listingId, { skip: !enabled });
  const latestRefetch = useRef(refetch);
  latestRefetch.current = refetch;
  const reload = useMemo(() => coalescedReload(() => freshRead(() => latestRefetch.current())), []);
  const stake = hasStake(data, placedHere);
  const seenPrice = useRef(price);
  useEffect(() => {
    if (seenPrice.current === price) return;
    seenPrice.current = price;
    // Another bidder's bid may have passed this viewer's maximum; without a stake nothing they are told can change.
    if (enabled && stake) reload();
  }, [enabled, stake, price, reload]);
  return enabled && data ? data : null;
}
