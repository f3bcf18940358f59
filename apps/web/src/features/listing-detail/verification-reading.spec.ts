import type { ListingVerificationDto, VerificationConnectionDto, VerificationConnectionsDto, VerifiedRevenueDto } from '@market/contracts';
import {
  figuresBehind,
  firstReadFailed,
  isReading,
  READ_POLL_MS,
  readingKey,
  readMarks,
  readPollInterval,
  readSettled,
} from './verification-reading';

const LISTING = '0b7f6a52-3c1d-4e8f-9a2b-5c6d7e8f9a0b';
const CONNECTED = '2026-12-07T10:00:00.000Z';
const READ = '2026-12-07T10:00:02.000Z';

type Connection = NonNullable<VerificationConnectionDto['connection']>;
const connection = (state: Connection['state'], verified_at: string | null, over: Partial<Connection> = {}): Connection => ({
  state,
  connected_at: CONNECTED,
  account_label: null,
  property_id: null,
  last_attempt_at: null,
  last_error: null,
  verified_at,
  ...over,
});
const answer = (stripe: Connection | null, ga4: Connection | null = null): VerificationConnectionsDto => ({
  listing_id: LISTING,
  sources: [
    { source: 'stripe', available: true, test_mode: false, connection: stripe },
    { source: 'ga4', available: true, test_mode: false, connection: ga4 },
  ],
});

describe('the first 12-month read, run in the background (ADR 0084)', () => {
  it('is under way while a connection is active and never verified', () => {
    expect(isReading(connection('active', null))).toBe(true);
    expect(isReading(connection('active', READ))).toBe(false);
    expect(isReading(connection('failing', null))).toBe(false);
    expect(isReading(connection('revoked', null))).toBe(false);
    expect(isReading(null)).toBe(false);
  });
  it('failed when the connection is failing and was never verified', () => {
    expect(firstReadFailed(connection('failing', null))).toBe(true);
    expect(firstReadFailed(connection('failing', READ))).toBe(false);
    expect(firstReadFailed(connection('active', null))).toBe(false);
    expect(firstReadFailed(undefined)).toBe(false);
  });
});

describe('polling GET /verifications while a first read runs', () => {
  it('asks every 2 s while a read runs, and not once none does or the wait is over', () => {
    expect(READ_POLL_MS).toBe(2000);
    expect(readPollInterval(answer(connection('active', null)), false)).toBe(2000);
    expect(readPollInterval(answer(null, connection('active', null, { property_id: '123' })), false)).toBe(2000);
    expect(readPollInterval(answer(connection('active', null)), true)).toBe(0);
    expect(readPollInterval(answer(connection('active', READ)), false)).toBe(0);
    expect(readPollInterval(answer(connection('failing', null)), false)).toBe(0);
    expect(readPollInterval(answer(null), false)).toBe(0);
    expect(readPollInterval(undefined, false)).toBe(0);
  });
  it('keys the wait by the reads under way, so a new connection waits afresh', () => {
    expect(readingKey(answer(connection('active', READ)))).toBe('');
    expect(readingKey(answer(connection('active', null), connection('active', null)))).toBe(`stripe@${CONNECTED} ga4@${CONNECTED}`);
    expect(readingKey(answer(connection('active', null, { connected_at: READ })))).toBe(`stripe@${READ}`);
  });
});

describe('fetching the listing again once a read came back', () => {
  const reading = readMarks(answer(connection('active', null)));
  it('does when a read under way is verified or failed', () => {
    expect(readSettled(reading, readMarks(answer(connection('active', READ))))).toBe(true);
    expect(readSettled(reading, readMarks(answer(connection('failing', null, { last_error: 'Stripe did not answer in time' }))))).toBe(true);
  });
  it('does when the read was back before the panel saw it under way (connected, then verified at once)', () => {
    expect(readSettled(readMarks(answer(null)), readMarks(answer(connection('active', READ))))).toBe(true);
  });
  it('does not while it still runs, when nothing changed, on the first look, or for a source disconnected', () => {
    expect(readSettled(reading, reading)).toBe(false);
    expect(readSettled(readMarks(answer(null)), reading)).toBe(false);
    expect(readSettled(undefined, readMarks(answer(connection('active', READ))))).toBe(false);
    const verified = readMarks(answer(connection('active', READ)));
    expect(readSettled(verified, readMarks(answer(connection('active', READ))))).toBe(false);
    expect(readSettled(verified, readMarks(answer(null)))).toBe(false);
  });
});

describe('a listing answered before the read came back', () => {
  const revenue = (verified_at: string) => ({ verified_at }) as VerifiedRevenueDto;
  const shown = (verified_at: string | null): ListingVerificationDto => ({ revenue: verified_at ? revenue(verified_at) : null, traffic: null });
  it('is behind when a connection was read after the figures it shows', () => {
    expect(figuresBehind(answer(connection('active', READ)), shown(null))).toBe(true);
    expect(figuresBehind(answer(connection('active', READ)), shown('2026-12-06T03:00:00.000Z'))).toBe(true);
  });
  it('is not when it shows the newest read, while a read runs, or when the answer carries no figures', () => {
    expect(figuresBehind(answer(connection('active', READ)), shown(READ))).toBe(false);
    expect(figuresBehind(answer(connection('active', null)), shown(null))).toBe(false);
    expect(figuresBehind(answer(connection('failing', null)), shown(null))).toBe(false);
    expect(figuresBehind(answer(connection('active', READ)), undefined)).toBe(false);
  });
});
