import { BusKeys, BusSigner, generateBusKeyPair, generateBusKeys, parseBusPublicKeys, parseBusSigningKey } from './bus-keys';
import { busCryptoReady } from './bus-box-keys';
import { isSealed, openFrom, sealFor } from './bus-sealing';
import { busIdentity, checkBusKeys } from './bus-identity';
import { ConfigError } from '../config/env';

const keys = generateBusKeys();
const listed = JSON.parse(keys.publicKeys) as Record<string, string[]>;
const publicKeys = new BusKeys(parseBusPublicKeys(keys.publicKeys));
const signer = (party: keyof typeof keys.signingKeys, seed = keys.signingKeys[party]) => new BusSigner(party, parseBusSigningKey(seed));
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const secret = new TextEncoder().encode('{"login":"ann","password":"correct horse battery staple"}');

describe('sealed bus messages (ADR 0066)', () => {
  beforeAll(() => busCryptoReady());

  it("opens for the recipient alone, from the sender it names, and shows nothing of the text to anyone else", () => {
    const sealed = sealFor(signer('gateway'), publicKeys, 'auth-service', secret);
    expect(isSealed(sealed)).toBe(true);
    expect(Buffer.from(sealed).includes(Buffer.from('password'))).toBe(false);
    const opened = openFrom(signer('auth-service'), publicKeys, 'gateway', sealed);
    expect(opened && text(opened.bytes)).toBe(text(secret));
    expect(Buffer.from(opened!.senderKey).toString('base64url')).toBe(listed.gateway[0]);
    // Another process, even one on the bus, cannot open it; nor can the recipient believe it came from someone else.
    expect(openFrom(signer('billing-service'), publicKeys, 'gateway', sealed)).toBeNull();
    expect(openFrom(signer('auth-service'), publicKeys, 'billing-service', sealed)).toBeNull();
    // Two seals of one text differ: nothing on the wire tells that two requests said the same.
    expect(Buffer.from(sealFor(signer('gateway'), publicKeys, 'auth-service', secret)).equals(Buffer.from(sealed))).toBe(false);
  });

  it('refuses a message altered anywhere, cut short, or in clear', () => {
    const sealed = sealFor(signer('gateway'), publicKeys, 'auth-service', secret);
    for (const at of [1, 10, 20, 60, sealed.length - 20, sealed.length - 1]) {
      const altered = Uint8Array.from(sealed);
      altered[at] ^= 0x01;
      expect(openFrom(signer('auth-service'), publicKeys, 'gateway', altered)).toBeNull();
    }
    expect(openFrom(signer('auth-service'), publicKeys, 'gateway', sealed.subarray(0, sealed.length - 1))).toBeNull();
    expect(openFrom(signer('auth-service'), publicKeys, 'gateway', sealed.subarray(0, 12))).toBeNull();
    expect(openFrom(signer('auth-service'), publicKeys, 'gateway', secret)).toBeNull();
    expect(isSealed(secret)).toBe(false);
  });

  it("during a rotation opens with either of the recipient's keys, and seals an answer for the one key that asked", () => {
    const fresh = generateBusKeyPair();
    const rotating = new BusKeys(parseBusPublicKeys(JSON.stringify({ ...listed, 'auth-service': [...listed['auth-service'], fresh.publicKey] })));
    const sealed = sealFor(signer('gateway'), rotating, 'auth-service', secret);
    expect(text(openFrom(signer('auth-service'), rotating, 'gateway', sealed)!.bytes)).toBe(text(secret));
    expect(text(openFrom(signer('auth-service', fresh.signingKey), rotating, 'gateway', sealed)!.bytes)).toBe(text(secret));
    const asked = openFrom(signer('auth-service', fresh.signingKey), rotating, 'gateway', sealed)!;
    const answer = sealFor(signer('gateway'), rotating, 'auth-service', secret, Buffer.from(fresh.publicKey, 'base64url'));
    expect(openFrom(signer('auth-service', fresh.signingKey), rotating, 'gateway', answer)).not.toBeNull();
    expect(openFrom(signer('auth-service'), rotating, 'gateway', answer)).toBeNull();
    expect(asked.senderKey).toEqual(new Uint8Array(Buffer.from(listed.gateway[0], 'base64url')));
    // Once switched to the new key, what was sealed for the old one alone (an event still in the stream) opens with
    // BUS_PREVIOUS_SIGNING_KEY, and with nothing else.
    const forOldKey = sealFor(signer('gateway'), publicKeys, 'auth-service', secret);
    const switched = busIdentity('auth-service', { BUS_SIGNING_KEY: fresh.signingKey, BUS_PUBLIC_KEYS: JSON.stringify({ ...listed, 'auth-service': [fresh.publicKey] }) }, 'test');
    expect(openFrom(switched.signer, publicKeys, 'gateway', forOldKey)).toBeNull();
    const withPrevious = busIdentity(
      'auth-service',
      { BUS_SIGNING_KEY: fresh.signingKey, BUS_PREVIOUS_SIGNING_KEY: keys.signingKeys['auth-service'], BUS_PUBLIC_KEYS: JSON.stringify({ ...listed, 'auth-service': [fresh.publicKey] }) },
      'test',
    );
    expect(text(openFrom(withPrevious.signer, publicKeys, 'gateway', forOldKey)!.bytes)).toBe(text(secret));
    // Once the old key is no longer listed, it opens only what something else proves (an event's fields, signed with
    // their event): a seal that is its own proof (a request, a reply; ADR 0068) it no longer opens.
    expect(text(openFrom(withPrevious.signer, withPrevious.keys, 'gateway', forOldKey, { provesSender: false })!.bytes)).toBe(text(secret));
    expect(openFrom(withPrevious.signer, withPrevious.keys, 'gateway', forOldKey)).toBeNull();
  });

  it('seals and signs nothing with BUS_CHECKS=off, which only a benchmark under NODE_ENV=test may set', () => {
    const config = { BUS_SIGNING_KEY: keys.signingKeys['auth-service'], BUS_PUBLIC_KEYS: keys.publicKeys, BUS_CHECKS: 'off' as const };
    expect(() => busIdentity('auth-service', config, 'production')).toThrow(new ConfigError('BUS_CHECKS', 'may be off only in a benchmark (NODE_ENV=test): it believes anyone on the bus'));
    expect(() => busIdentity('auth-service', config, 'development')).toThrow(ConfigError);
    const unchecked = busIdentity('auth-service', config, 'test');
    expect(sealFor(unchecked.signer, unchecked.keys, 'gateway', secret)).toBe(secret);
    expect(openFrom(unchecked.signer, unchecked.keys, 'gateway', secret)?.bytes).toBe(secret);
    expect(unchecked.signer.sign(secret)).not.toBe(unchecked.signer.sign(secret));
    expect(unchecked.keys.verify('gateway', secret, 'anything')).toBe(true);
    // A checked process is the default.
    expect(busIdentity('auth-service', { ...config, BUS_CHECKS: 'on' }, 'production').signer.checks).toBe(true);
  });

  it('refuses at start a listed key that is no Ed25519 public key, and opens nothing that names one', async () => {
    const broken = { ...listed, 'billing-service': ['A'.repeat(43)] };
    const identity = busIdentity('auth-service', { BUS_SIGNING_KEY: keys.signingKeys['auth-service'], BUS_PUBLIC_KEYS: JSON.stringify(broken) }, 'test');
    await expect(checkBusKeys(identity)).rejects.toThrow(new ConfigError('BUS_PUBLIC_KEYS', 'lists a key of billing-service that is not an Ed25519 public key'));
    await expect(checkBusKeys(busIdentity('auth-service', { BUS_SIGNING_KEY: keys.signingKeys['auth-service'], BUS_PUBLIC_KEYS: keys.publicKeys }, 'test'))).resolves.toBeDefined();
    // A message claiming that key as its sender (its id: eight zero bytes) is refused, not thrown on.
    const sealed = sealFor(signer('gateway'), publicKeys, 'auth-service', secret);
    sealed.fill(0, 1, 9);
    expect(openFrom(identity.signer, identity.keys, 'billing-service', sealed)).toBeNull();
  });
});
