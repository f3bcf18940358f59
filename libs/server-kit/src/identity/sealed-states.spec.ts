import { BusKeys, BusSigner, generateBusKeys, parseBusPublicKeys, parseBusSigningKey } from '../bus/bus-keys';
import { openAccountState, openSessionState, sealAccountState, sealSessionState } from './sealed-states';

const keys = generateBusKeys();
const publicKeys = new BusKeys(parseBusPublicKeys(keys.publicKeys));
const signer = (party: keyof typeof keys.signingKeys, set = keys) => new BusSigner(party, parseBusSigningKey(set.signingKeys[party]));
const NOW = 1_800_000_000_000;
const member = { token_version: 3, status: 'active' as const, role: 'regular' as const, email_verified: true };

describe('account and session states in Redis, sealed by auth-service (ADR 0065)', () => {
  it('reads back what auth-service sealed for this account or session until it runs out', () => {
    const sealed = sealAccountState(signer('auth-service'), 'user-1', member, 300, NOW);
    expect(openAccountState(publicKeys, 'user-1', sealed, NOW)).toEqual({ value: member });
    expect(openAccountState(publicKeys, 'user-1', sealed, NOW + 301_000)).toBe('absent');
    expect(openAccountState(publicKeys, 'user-1', null, NOW)).toBe('absent');
    const ended = sealSessionState(signer('auth-service'), 'session-1', false, 60, NOW);
    expect(openSessionState(publicKeys, 'session-1', ended, NOW)).toEqual({ value: false });
  });

  it('believes no state auth-service did not sign for exactly this key', () => {
    const admin = sealAccountState(signer('auth-service'), 'admin-1', { ...member, role: 'admin' }, 300, NOW);
    // The admin's own signed state copied onto a member's key.
    expect(openAccountState(publicKeys, 'user-1', admin, NOW)).toBe('forged');
    // Written by hand, as before any signing.
    expect(openAccountState(publicKeys, 'user-1', JSON.stringify({ ...member, role: 'admin' }), NOW)).toBe('forged');
    expect(openSessionState(publicKeys, 'session-1', '1', NOW)).toBe('forged');
    // Signed, then changed: the role raised, or the expiry pushed out.
    const sealed = JSON.parse(sealAccountState(signer('auth-service'), 'user-1', member, 300, NOW)) as { v: typeof member; exp: number; sig: string };
    expect(openAccountState(publicKeys, 'user-1', JSON.stringify({ ...sealed, v: { ...sealed.v, role: 'admin' } }), NOW)).toBe('forged');
    expect(openAccountState(publicKeys, 'user-1', JSON.stringify({ ...sealed, exp: sealed.exp + 3600 }), NOW)).toBe('forged');
    expect(openAccountState(publicKeys, 'user-1', JSON.stringify({ ...sealed, v: { ...sealed.v, extra: true } }), NOW)).toBe('forged');
    // Signed by another process, or by another deployment's auth-service.
    expect(openAccountState(publicKeys, 'user-1', sealAccountState(signer('billing-service'), 'user-1', member, 300, NOW), NOW)).toBe('forged');
    expect(openAccountState(publicKeys, 'user-1', sealAccountState(signer('auth-service', generateBusKeys()), 'user-1', member, 300, NOW), NOW)).toBe('forged');
    // A session's mark moved to another session, or a live mark valid for a year.
    expect(openSessionState(publicKeys, 'session-2', sealSessionState(signer('auth-service'), 'session-1', true, 60, NOW), NOW)).toBe('forged');
    expect(openSessionState(publicKeys, 'session-1', sealSessionState(signer('auth-service'), 'session-1', true, 365 * 24 * 3600, NOW), NOW)).toBe('forged');
    expect(openAccountState(publicKeys, 'user-1', 'not json', NOW)).toBe('forged');
  });
});
