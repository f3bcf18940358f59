import type { ListingVerificationDto, VerificationConnectionDto, VerificationConnectionsDto, VerificationSource } from '@market/contracts';

// ADR 0084: connecting Stripe or finishing GA4 only checks the key or consent and keeps it; the 12-month read runs as a
// background job a moment later. Until it sets `verified_at`, the connection is active and never verified.

type Connection = NonNullable<VerificationConnectionDto['connection']>;
type ReadFacts = Pick<Connection, 'state' | 'verified_at'>;

/** How often the seller's panel asks for its connections again while a first read runs. */
export const READ_POLL_MS = 2_000;

/** How long the panel keeps asking before it leaves the seller to reload (a job that never ran must not poll forever). */
export const READ_POLL_LIMIT_MS = 120_000;

/** What the seller's panel says while a source's first read runs (ADR 0084). */
export const READING_TEXT = 'Reading the last 12 months…';

/** What it adds once the panel stopped asking and the read has still not come back. */
export const READING_SLOW_TEXT = 'This is taking longer than usual: reload the page in a few minutes to see the figures.';

/** True while a connection's first 12-month read is under way: active and never verified (ADR 0084). */
export function isReading(connection: ReadFacts | null | undefined): boolean {
  return connection?.state === 'active' && connection.verified_at === null;
}

/** True when a connection's first read failed: failing and never verified, so no figures show yet. */
export function firstReadFailed(connection: ReadFacts | null | undefined): boolean {
  return connection?.state === 'failing' && connection.verified_at === null;
}

/**
 * The first reads under way, as one key ('' for none): each source with when it was connected, so a new connection
 * (after a disconnect) starts a new wait of READ_POLL_LIMIT_MS.
 */
export function readingKey(connections: VerificationConnectionsDto | undefined): string {
  return (connections?.sources ?? [])
    .filter((entry) => isReading(entry.connection))
    .map((entry) => `${entry.source}@${entry.connection?.connected_at}`)
    .join(' ');
}

/** GET /verifications' polling interval: READ_POLL_MS while a first read runs and the wait is not over; else 0 (off). */
export function readPollInterval(connections: VerificationConnectionsDto | undefined, waitOver: boolean): number {
  return readingKey(connections) !== '' && !waitOver ? READ_POLL_MS : 0;
}

/** Each source's read as last seen: absent without a connection, `reading`, or the state with its verified date. */
export type ReadMarks = Partial<Record<VerificationSource, string>>;

/** The marks of an answer of GET /verifications, to compare with the next one. */
export function readMarks(connections: VerificationConnectionsDto): ReadMarks {
  const marks: ReadMarks = {};
  for (const { source, connection } of connections.sources) {
    if (connection) marks[source] = isReading(connection) ? 'reading' : `${connection.state}:${connection.verified_at ?? ''}`;
  }
  return marks;
}

/**
 * True when a source's read came back (verified or failed) since `before`, or was already back when first seen after
 * a connect, so the listing's figures and badges must be fetched again. Never on the first look (`before` undefined),
 * nor for a source gone (a disconnect invalidates the listing itself).
 */
export function readSettled(before: ReadMarks | undefined, after: ReadMarks): boolean {
  if (!before) return false;
  return (Object.keys(after) as VerificationSource[]).some((source) => after[source] !== 'reading' && after[source] !== before[source]);
}

/**
 * True when the listing shows older figures than its connections were read at (the read came back between the two
 * answers): the listing must be fetched again. Both dates are the newest snapshot's. False for an answer without figures.
 */
export function figuresBehind(connections: VerificationConnectionsDto, verification: ListingVerificationDto | undefined): boolean {
  if (!verification) return false;
  const shown: Record<VerificationSource, string | undefined> = { stripe: verification.revenue?.verified_at, ga4: verification.traffic?.verified_at };
  return connections.sources.some(({ source, connection }) => Boolean(connection?.verified_at) && connection?.verified_at !== shown[source]);
}
