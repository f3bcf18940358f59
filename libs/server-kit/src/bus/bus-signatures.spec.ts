import { RPC } from '@market/contracts';
import { ConfigError } from '../config/env';
import { BusKeys, BusSigner, generateBusKeys, parseBusPublicKeys, parseBusSigningKey } from './bus-keys';
import { busIdentity } from './bus-identity';
import { keyringIdentity } from '../testing/test-env';
import { eventHeaders, eventProblem, eventSignature } from './bus-signatures';

const keys = generateBusKeys();
const publicKeys = new BusKeys(parseBusPublicKeys(keys.publicKeys));
const signer = (party: keyof typeof keys.signingKeys) => new BusSigner(party, parseBusSigningKey(keys.signingKeys[party]));

describe('bus keys (D25)', () => {
  it('reads every process with one or two keys, and nothing else', () => {
    expect([...parseBusPublicKeys(keys.publicKeys).keys()]).toHaveLength(7);
    const listed = JSON.parse(keys.publicKeys) as Record<string, string[]>;
    const fresh = (JSON.parse(generateBusKeys().publicKeys) as Record<string, string[]>).gateway[0];
    const rotating = { ...listed, gateway: [...listed.gateway, fresh] };
    expect(parseBusPublicKeys(JSON.stringify(rotating)).get('gateway')).toHaveLength(2);
    expect(() => parseBusPublicKeys('not json')).toThrow(/must be a JSON object/);
    expect(() => parseBusPublicKeys(JSON.stringify({ ...listed, mallory: listed.gateway }))).toThrow('names "mallory", which is no process of the bus');
    const { gateway: _gone, ...missing } = listed;
    expect(() => parseBusPublicKeys(JSON.stringify(missing))).toThrow('must list 1 or 2 keys for gateway');
    expect(() => parseBusPublicKeys(JSON.stringify({ ...listed, gateway: ['a', 'b', 'c'] }))).toThrow('must list 1 or 2 keys for gateway');
    expect(() => parseBusPublicKeys(JSON.stringify({ ...listed, gateway: ['short'] }))).toThrow(/a key of gateway must be 32 bytes/);
    // One key under two processes would let one sign as the other.
    expect(() => parseBusPublicKeys(JSON.stringify({ ...listed, gateway: [...listed.gateway, listed['auth-service'][0]] }))).toThrow('lists one key for both auth-service and gateway');
    expect(() => parseBusSigningKey('x'.repeat(43).replace(/x$/, '!'))).toThrow(/32 bytes in base64url/);
    // One key spelled another way (base64url's spare bits) is still one key; so is one listed twice for a process.
    const auth = listed['auth-service'][0];
    const respelled = `${auth.slice(0, 42)}${'BFJNRVZdhlptx159'['AEIMQUYcgkosw048'.indexOf(auth[42])]}`;
    expect(respelled).not.toBe(auth);
    expect(() => parseBusPublicKeys(JSON.stringify({ ...listed, gateway: [...listed.gateway, respelled] }))).toThrow('lists one key for both auth-service and gateway');
    expect(() => parseBusPublicKeys(JSON.stringify({ ...listed, gateway: [listed.gateway[0], listed.gateway[0]] }))).toThrow('lists one key twice for gateway');
  });

  it('refuses a signing key whose public half is not listed for its process', () => {
    expect(busIdentity('auth-service', { BUS_SIGNING_KEY: keys.signingKeys['auth-service'], BUS_PUBLIC_KEYS: keys.publicKeys }).signer.party).toBe('auth-service');
    expect(() => busIdentity('gateway', { BUS_SIGNING_KEY: keys.signingKeys['auth-service'], BUS_PUBLIC_KEYS: keys.publicKeys })).toThrow(
      new ConfigError('BUS_SIGNING_KEY', 'its public key is not listed for gateway in BUS_PUBLIC_KEYS'),
    );
  });

  it("signs a test client's request as a process allowed to call the subject", () => {
    const identity = keyringIdentity(keys.signingKeys, keys.publicKeys);
    expect(identity.signerFor('auth.login').party).toBe('gateway');
    expect(identity.signerFor('auth.contacts').party).toBe('notifications-service');
    expect(identity.signerFor(RPC.admin.effectiveSettings.subject).party).not.toBe('gateway');
  });
});

describe('signed events', () => {
  const payload = { user_id: 'u1', username: 'ann', email: 'ann@example.com', created_at: '2026-12-06T00:00:00.000Z' };
  const event = { id: 'e1', name: 'user.registered' as const, occurred_at: '2026-12-06T10:00:00.000Z', payload };

  it("believes an event signed by its declared writer, whatever order the payload's keys come back in", () => {
    const signed = eventSignature(signer('auth-service'), event);
    const reordered = { created_at: payload.created_at, email: payload.email, username: payload.username, user_id: payload.user_id };
    expect(eventProblem(publicKeys, { ...event, payload: reordered }, eventHeaders(signed.sender, signed.signature))).toBeNull();
  });

  it('refuses one unsigned, by a process that does not write it, changed, or renamed', () => {
    const signed = eventSignature(signer('auth-service'), event);
    const headers = eventHeaders(signed.sender, signed.signature);
    expect(eventProblem(publicKeys, event, undefined)).toBe('unsigned event');
    const byListings = eventSignature(signer('listings-service'), event);
    expect(eventProblem(publicKeys, event, eventHeaders(byListings.sender, byListings.signature))).toBe('user.registered signed by listings-service, which does not write it');
    expect(eventProblem(publicKeys, { ...event, payload: { ...payload, username: 'eve' } }, headers)).toBe('not signed by auth-service');
    expect(eventProblem(publicKeys, { ...event, id: 'e2' }, headers)).toBe('not signed by auth-service');
    // Its time moved (a deletion's moderation time, an email's staleness, are read from it).
    expect(eventProblem(publicKeys, { ...event, occurred_at: '2026-01-01T00:00:00.000Z' }, headers)).toBe('not signed by auth-service');
    expect(eventProblem(publicKeys, { ...event, name: 'user.deleted' as never }, headers)).toBe('not signed by auth-service');
    expect(eventProblem(publicKeys, { ...event, name: 'no.such' as never }, headers)).toBe('no such event');
    // Nested past any event of ours: refused without walking it (a stack overflow would stop the reader).
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(eventProblem(publicKeys, { ...event, payload: { ...payload, deep } }, headers)).toMatch(/^unreadable payload \(nested deeper than 32\)$/);
  });
});
