import { headers as natsHeaders } from 'nats';
import { RPC } from '@market/contracts';
import { ConfigError } from '../config/env';
import { BusKeys, BusSigner, generateBusKeys, parseBusPublicKeys, parseBusSigningKey } from './bus-keys';
import { busIdentity, keyringIdentity } from './bus-identity';
import { CLOCK_SKEW_MS, EXPIRES_HEADER, MAX_REQUEST_LIFETIME_MS, SENDER_HEADER, SIGNATURE_HEADER, checkReply, checkRequest, eventHeaders, eventProblem, eventSignature, replyHeaders, requestHeaders } from './bus-signatures';

const keys = generateBusKeys();
const publicKeys = new BusKeys(parseBusPublicKeys(keys.publicKeys));
const signer = (party: keyof typeof keys.signingKeys) => new BusSigner(party, parseBusSigningKey(keys.signingKeys[party]));
const data = new TextEncoder().encode('{"pattern":"auth.login","data":{"meta":{},"data":{}},"id":"1"}');
const NOW = 1_800_000_000_000;

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
    expect(() => parseBusSigningKey('x'.repeat(43).replace(/x$/, '!'))).toThrow(/32 bytes in base64url/);
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

describe('signed requests', () => {
  const subject = 'rpc_x.auth.login';
  const signed = () => requestHeaders(signer('gateway'), subject, data, NOW + 5000);

  it('names a sender whose key signed exactly this subject, data and expiry', () => {
    expect(checkRequest(publicKeys, subject, signed(), data, NOW)).toEqual({ sender: 'gateway' });
    expect(checkRequest(publicKeys, 'rpc_x.auth.register', signed(), data, NOW)).toEqual({ problem: 'not signed by gateway' });
    expect(checkRequest(publicKeys, subject, signed(), new TextEncoder().encode('{"other":1}'), NOW)).toEqual({ problem: 'not signed by gateway' });
  });

  it('refuses one unsigned, expired, valid too long, claiming another sender or no process', () => {
    expect(checkRequest(publicKeys, subject, undefined, data, NOW)).toEqual({ problem: 'unsigned request' });
    expect(checkRequest(publicKeys, subject, signed(), data, NOW + 5000 + CLOCK_SKEW_MS + 1)).toEqual({ problem: 'expired signature' });
    expect(checkRequest(publicKeys, subject, signed(), data, NOW + 5000 + CLOCK_SKEW_MS)).toEqual({ sender: 'gateway' });
    const forever = requestHeaders(signer('gateway'), subject, data, NOW + MAX_REQUEST_LIFETIME_MS + CLOCK_SKEW_MS + 1);
    expect(checkRequest(publicKeys, subject, forever, data, NOW)).toEqual({ problem: 'signature valid for too long' });
    const moved = signed();
    moved.set(EXPIRES_HEADER, String(NOW + 60_000));
    expect(checkRequest(publicKeys, subject, moved, data, NOW)).toEqual({ problem: 'not signed by gateway' });
    const claimed = signed();
    claimed.set(SENDER_HEADER, 'auth-service');
    expect(checkRequest(publicKeys, subject, claimed, data, NOW)).toEqual({ problem: 'not signed by auth-service' });
    const nobody = signed();
    nobody.set(SENDER_HEADER, 'mallory');
    expect(checkRequest(publicKeys, subject, nobody, data, NOW)).toEqual({ problem: 'signed by no process of the bus' });
    const garbage = signed();
    garbage.set(SIGNATURE_HEADER, 'AAAA');
    expect(checkRequest(publicKeys, subject, garbage, data, NOW)).toEqual({ problem: 'not signed by gateway' });
  });

  it('refuses a signature made with another key set', () => {
    const other = new BusSigner('gateway', parseBusSigningKey(generateBusKeys().signingKeys.gateway));
    expect(checkRequest(publicKeys, subject, requestHeaders(other, subject, data, NOW + 5000), data, NOW)).toEqual({ problem: 'not signed by gateway' });
  });
});

describe('signed replies', () => {
  it("takes only the owner's signature for this inbox and these bytes", () => {
    const headers = replyHeaders(signer('auth-service'), '_INBOX.gw.1', data);
    expect(checkReply(publicKeys, 'auth-service', '_INBOX.gw.1', headers, data)).toBe(true);
    expect(checkReply(publicKeys, 'auth-service', '_INBOX.gw.2', headers, data)).toBe(false);
    expect(checkReply(publicKeys, 'auth-service', '_INBOX.gw.1', headers, new TextEncoder().encode('{}'))).toBe(false);
    expect(checkReply(publicKeys, 'billing-service', '_INBOX.gw.1', headers, data)).toBe(false);
    // Signed by a real process that does not answer the subject.
    expect(checkReply(publicKeys, 'auth-service', '_INBOX.gw.1', replyHeaders(signer('billing-service'), '_INBOX.gw.1', data), data)).toBe(false);
    expect(checkReply(publicKeys, 'auth-service', '_INBOX.gw.1', undefined, data)).toBe(false);
    expect(checkReply(publicKeys, 'auth-service', '_INBOX.gw.1', natsHeaders(), data)).toBe(false);
  });
});

describe('signed events', () => {
  const payload = { user_id: 'u1', username: 'ann', email: 'ann@example.com', created_at: '2026-12-06T00:00:00.000Z' };
  const event = { id: 'e1', name: 'user.registered' as const, payload };

  it("believes an event signed by its declared writer, whatever order the payload's keys come back in", () => {
    const signed = eventSignature(signer('auth-service'), event.id, event.name, payload);
    const reordered = { created_at: payload.created_at, email: payload.email, username: payload.username, user_id: payload.user_id };
    expect(eventProblem(publicKeys, { ...event, payload: reordered }, eventHeaders(signed.sender, signed.signature))).toBeNull();
  });

  it('refuses one unsigned, by a process that does not write it, changed, or renamed', () => {
    const signed = eventSignature(signer('auth-service'), event.id, event.name, payload);
    const headers = eventHeaders(signed.sender, signed.signature);
    expect(eventProblem(publicKeys, event, undefined)).toBe('unsigned event');
    const byListings = eventSignature(signer('listings-service'), event.id, event.name, payload);
    expect(eventProblem(publicKeys, event, eventHeaders(byListings.sender, byListings.signature))).toBe('user.registered signed by listings-service, which does not write it');
    expect(eventProblem(publicKeys, { ...event, payload: { ...payload, username: 'eve' } }, headers)).toBe('not signed by auth-service');
    expect(eventProblem(publicKeys, { ...event, id: 'e2' }, headers)).toBe('not signed by auth-service');
    expect(eventProblem(publicKeys, { ...event, name: 'user.deleted' as never }, headers)).toBe('not signed by auth-service');
    expect(eventProblem(publicKeys, { ...event, name: 'no.such' as never }, headers)).toBe('no such event');
  });
});
