import type { EventEnvelope } from '@market/contracts';
import { unmailableReason } from './notified-events';

const now = new Date('2026-11-24T12:00:00Z');
const event = (occurred_at: string, payload: Record<string, unknown>) =>
  ({ id: 'e1', name: 'bid.placed', occurred_at, request_id: null, payload }) as unknown as EventEnvelope;

describe('unmailableReason', () => {
  it('mails a fresh event that has every field', () => {
    expect(unmailableReason(event('2026-11-24T11:00:00Z', { seller_id: 's', listing_title: 't' }), ['seller_id', 'listing_title'], now)).toBeNull();
  });

  it('keeps a null field (a value) apart from a missing one', () => {
    expect(unmailableReason(event('2026-11-24T11:00:00Z', { previous_leader_id: null }), ['previous_leader_id'], now)).toBeNull();
    expect(unmailableReason(event('2026-11-24T11:00:00Z', {}), ['previous_leader_id', 'seller_id'], now)).toBe('it lacks previous_leader_id, seller_id');
  });

  it('drops events older than 24 hours', () => {
    expect(unmailableReason(event('2026-11-23T11:59:59Z', { seller_id: 's' }), ['seller_id'], now)).toBe('it is older than 24 hours');
    expect(unmailableReason(event('2026-11-23T12:00:01Z', { seller_id: 's' }), ['seller_id'], now)).toBeNull();
  });

  it('never drops mail that is not a timely notice for its age, only for missing fields', () => {
    expect(unmailableReason(event('2026-11-01T00:00:00Z', { email: 'a@b.c' }), ['email'], now, false)).toBeNull();
    expect(unmailableReason(event('yesterday', {}), ['email'], now, false)).toBe('it lacks email');
  });

  it('drops events without a valid time', () => {
    expect(unmailableReason(event('yesterday', {}), [], now)).toBe('it has no valid time');
  });
});
