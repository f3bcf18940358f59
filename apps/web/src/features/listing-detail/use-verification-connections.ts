import { useEffect, useRef, useState } from 'react';
import { listingFigureTags, useVerificationConnectionsQuery, verifiedFiguresApi } from '../../api/verified-figures.api';
import { useAppDispatch } from '../../lib/store-hooks';
import type { ListingVerificationDto } from '@market/contracts';
import { figuresBehind, readingKey, readMarks, readPollInterval, readSettled, READ_POLL_LIMIT_MS, type ReadMarks } from './verification-reading';

/**
 * The seller's connections (ADR 0084), asked for again every 2 s while a first 12-month read runs in the background,
 * for at most READ_POLL_LIMIT_MS; when a read comes back (or the listing's `verification` is older than the reads), the
 * listing is fetched again so its figures and badges show without a reload. `slow`: the wait ran out, a read still runs.
 */
export function useVerificationConnections(listingId: string, verification: ListingVerificationDto | undefined) {
  const dispatch = useAppDispatch();
  // The cached answer decides the polling of the subscription below: both read the same cache entry.
  const { data: cached } = verifiedFiguresApi.endpoints.verificationConnections.useQueryState(listingId);
  const key = readingKey(cached);
  // The reads whose wait ran out; a new key (another source, a new connection) waits afresh.
  const [overFor, setOverFor] = useState<string | null>(null);
  const waitOver = key !== '' && overFor === `${listingId} ${key}`;
  const result = useVerificationConnectionsQuery(listingId, { pollingInterval: readPollInterval(cached, waitOver), skipPollingIfUnfocused: false });

  useEffect(() => {
    if (key === '') return;
    const timer = setTimeout(() => setOverFor(`${listingId} ${key}`), READ_POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [listingId, key]);

  const marks = useRef<{ listingId: string; marks: ReadMarks } | null>(null);
  const { data } = result;
  useEffect(() => {
    if (!data) return;
    const next = readMarks(data);
    const before = marks.current?.listingId === listingId ? marks.current.marks : undefined;
    if (readSettled(before, next) || figuresBehind(data, verification)) dispatch(verifiedFiguresApi.util.invalidateTags(listingFigureTags(listingId)));
    marks.current = { listingId, marks: next };
  }, [data, verification, listingId, dispatch]);

  return { ...result, slow: waitOver };
}
