import { RPC } from './subjects';
import { callersOf, mayCall, ownerOf, writersOf } from './bus-parties';
import { SERVICE_CALLS } from './nats-permissions';

describe('who may say what on the bus (D25)', () => {
  it('lets the gateway call what a browser may, and only services the subjects they list', () => {
    expect(mayCall('gateway', RPC.auth.login.subject)).toBe(true);
    for (const internal of [RPC.auth.contacts, RPC.auth.stats, RPC.admin.effectiveSettings, RPC.listings.saleTerms]) {
      expect([internal.subject, mayCall('gateway', internal.subject)]).toEqual([internal.subject, false]);
      expect(callersOf(internal.subject).length).toBeGreaterThan(0);
    }
    expect(callersOf(RPC.auth.contacts.subject)).toEqual(['notifications-service']);
    expect(mayCall('bidding-service', RPC.billing.paymentMethodStatus.subject)).toBe(true);
    expect(mayCall('listings-service', RPC.billing.paymentMethodStatus.subject)).toBe(false);
    expect(mayCall('mallory', RPC.auth.login.subject)).toBe(false);
    expect(callersOf('auth.no_such_subject')).toEqual([]);
  });

  it('lets every process ask for session state, and each service the subjects SERVICE_CALLS lists', () => {
    expect(callersOf(RPC.auth.sessionState.subject)).toHaveLength(7);
    for (const [service, calls] of Object.entries(SERVICE_CALLS)) for (const call of calls) expect([service, call.subject, mayCall(service, call.subject)]).toEqual([service, call.subject, true]);
  });

  it('names the one service that answers each subject, and the writers of each event', () => {
    expect(ownerOf(RPC.auth.login.subject)).toBe('auth-service');
    expect(ownerOf(RPC.billing.paymentMethodStatus.subject)).toBe('billing-service');
    expect(ownerOf('nowhere.at_all')).toBeNull();
    expect(writersOf('bid.accepted')).toEqual(['bidding-service']);
    expect(writersOf('audit.recorded')).toEqual(['gateway']);
  });
});
