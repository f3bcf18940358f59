import { SEALED_EVENT_FIELDS, EVENT_FLOWS, type EventName } from '@market/contracts';
import { busCryptoReady } from '../bus/bus-box-keys';
import { generateBusKeys } from '../bus/bus-keys';
import { keyringIdentity } from '../testing/test-env';
import { openEventFields, sealEventFields } from './sealed-fields';

const keys = generateBusKeys();
const as = (party: Parameters<typeof keyringIdentity>[2]) => keyringIdentity(keys.signingKeys, keys.publicKeys, party);
const envelope = (name: EventName, payload: object) => ({ id: 'e1', name, occurred_at: '2026-12-06T12:00:00.000Z', request_id: null, payload });

describe('sealed event fields (ADR 0066)', () => {
  beforeAll(() => busCryptoReady());

  it('names, for each event, one reader that consumes it', () => {
    for (const [name, declared] of Object.entries(SEALED_EVENT_FIELDS)) expect(EVENT_FLOWS[name as EventName].consumedBy).toContain(declared!.to);
  });

  it('moves the private fields into one sealed field that only their reader opens; every other consumer never has them', () => {
    const payload = { listing_id: 'l1', title: 'A site', reserve_price: '5000.00', starting_price: '100.00' };
    const sent = sealEventFields(as('listings-service'), 'listing.updated', payload);
    expect(sent).not.toHaveProperty('reserve_price');
    expect(JSON.stringify(sent)).not.toContain('5000');
    expect(openEventFields(as('bidding-service'), 'listings-service', envelope('listing.updated', sent))).toEqual({ value: envelope('listing.updated', payload) });
    const { reserve_price: _hidden, ...publicPart } = payload;
    expect(openEventFields(as('gateway'), 'listings-service', envelope('listing.updated', sent))).toEqual({ value: envelope('listing.updated', publicPart) });
    // A field sent in clear beside the seal is dropped for anyone who is not its reader.
    expect(openEventFields(as('gateway'), 'listings-service', envelope('listing.updated', { ...sent, reserve_price: '1.00' }))).toEqual({ value: envelope('listing.updated', publicPart) });
  });

  it('refuses a seal made by another process than the writer named, or altered, and a write without a sealed field', () => {
    const token = { user_id: 'u1', username: 'ann', email: 'ann@example.com', token: 'one-time', expires_at: '2026-12-07T12:00:00.000Z' };
    const forged = sealEventFields(as('billing-service'), 'user.password_reset_requested', token);
    expect(openEventFields(as('notifications-service'), 'auth-service', envelope('user.password_reset_requested', forged))).toEqual({
      problem: 'its sealed fields are not sealed for notifications-service by auth-service',
    });
    const genuine = sealEventFields(as('auth-service'), 'user.password_reset_requested', token) as typeof token & { sealed: string };
    const altered = { ...genuine, sealed: `${genuine.sealed.slice(0, -2)}${genuine.sealed.endsWith('AA') ? 'BA' : 'AA'}` };
    expect(openEventFields(as('notifications-service'), 'auth-service', envelope('user.password_reset_requested', altered))).toHaveProperty('problem');
    expect(openEventFields(as('notifications-service'), 'auth-service', envelope('user.password_reset_requested', genuine))).toEqual({ value: envelope('user.password_reset_requested', token) });
    const { email: _missing, ...withoutEmail } = token;
    expect(() => sealEventFields(as('auth-service'), 'user.password_reset_requested', withoutEmail)).toThrow('user.password_reset_requested: email is sealed for notifications-service and must be given');
  });

  it("refuses its reader's fields sent in clear, and opens nothing of an event whose signature does not hold", () => {
    const token = { user_id: 'u1', username: 'ann', email: 'ann@example.com', token: 'one-time', expires_at: '2026-12-07T12:00:00.000Z' };
    expect(openEventFields(as('notifications-service'), 'auth-service', envelope('user.password_reset_requested', token))).toEqual({
      problem: 'email, token sent in clear, not sealed for notifications-service',
    });
    const sent = sealEventFields(as('auth-service'), 'user.password_reset_requested', token);
    expect(openEventFields(as('notifications-service'), 'auth-service', envelope('user.password_reset_requested', sent), false)).toEqual({
      value: envelope('user.password_reset_requested', sent),
    });
  });
});
