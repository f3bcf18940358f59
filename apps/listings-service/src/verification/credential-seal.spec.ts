import { BusIdentity, BusKeys, BusSigner, busCryptoReady, generateBusKeyPair, parseBusSigningKey } from '@market/server-kit';
import { CredentialSeal } from './credential-seal';

const LISTING = '6f1c2c1e-8a3b-4d7e-9a51-0c6a4f1b2d3e';
const OTHER = '1b7d9e0a-2c4f-4e6a-8b1d-3f5a7c9e1b2d';

/** A seal as listings-service holds one: its bus key, and during a rotation the previous one. */
function sealOf(current: string, previous: string | null = null): CredentialSeal {
  const before = previous ? new BusSigner('listings-service', parseBusSigningKey(previous)) : null;
  const signer = new BusSigner('listings-service', parseBusSigningKey(current), true, before);
  return new CredentialSeal(new BusIdentity(signer, new BusKeys(new Map())));
}

describe('CredentialSeal (ADR 0084)', () => {
  const first = generateBusKeyPair().signingKey;
  const second = generateBusKeyPair().signingKey;
  beforeAll(() => busCryptoReady());

  it('opens what it sealed for the same listing and source, and never shows the secret in the sealed bytes', () => {
    const seal = sealOf(first);
    const sealed = seal.seal('rk_test_abcdefghijklmnop', LISTING, 'stripe');
    expect(sealed.includes(Buffer.from('abcdefghijklmnop'))).toBe(false);
    expect(seal.open(sealed, LISTING, 'stripe')).toBe('rk_test_abcdefghijklmnop');
    // Two seals of one secret differ (a fresh IV each time).
    expect(seal.seal('rk_test_abcdefghijklmnop', LISTING, 'stripe').equals(sealed)).toBe(false);
  });

  it('refuses a sealed key copied onto another listing or source, altered, or cut short', () => {
    const seal = sealOf(first);
    const sealed = seal.seal('1//refresh-token', LISTING, 'ga4');
    expect(seal.open(sealed, OTHER, 'ga4')).toBeNull();
    expect(seal.open(sealed, LISTING, 'stripe')).toBeNull();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(seal.open(altered, LISTING, 'ga4')).toBeNull();
    expect(seal.open(sealed.subarray(0, 20), LISTING, 'ga4')).toBeNull();
  });

  it('opens what the previous bus key sealed during a rotation, says it needs sealing again, and nothing once that key is gone', () => {
    const old = sealOf(first).seal('rk_live_0123456789abcdef', LISTING, 'stripe');
    const rotating = sealOf(second, first);
    expect(rotating.open(old, LISTING, 'stripe')).toBe('rk_live_0123456789abcdef');
    expect(rotating.isCurrent(old)).toBe(false);
    expect(rotating.isCurrent(rotating.seal('rk_live_0123456789abcdef', LISTING, 'stripe'))).toBe(true);
    expect(sealOf(second).open(old, LISTING, 'stripe')).toBeNull();
  });
});
