import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { NATS_PARTIES, type EventParty } from '@market/contracts';
import { boxKeyOf } from './bus-box-keys';

// An Ed25519 key is 32 bytes; these DER prefixes make them PKCS#8 and SPKI documents Node's crypto reads (RFC 8410).
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const KEY_BYTES = 32;
/** During a rotation a party has its old and its new key listed (docs/operations.md); more is a mistake. */
const MAX_KEYS_PER_PARTY = 2;

function rawKey(value: string, what: string): Buffer {
  const bytes = /^[A-Za-z0-9_-]{43}$/.test(value) ? Buffer.from(value, 'base64url') : null;
  if (!bytes || bytes.length !== KEY_BYTES) throw new Error(`${what} must be 32 bytes in base64url (43 characters)`);
  return bytes;
}

/** This process's signing key (D25): an Ed25519 private key given as its 32-byte seed in base64url. Throws when it is not one. */
export function parseBusSigningKey(value: string): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, rawKey(value.trim(), 'the key')]), format: 'der', type: 'pkcs8' });
}

/** A key's public half (from the private or the public key), as BUS_PUBLIC_KEYS lists it (32 bytes, base64url). */
export function busPublicKey(key: KeyObject): string {
  return (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).toString('base64url');
}

/**
 * Every process's public keys (BUS_PUBLIC_KEYS): `{"gateway": ["<key>"], "auth-service": ["<key>", "<new key>"], ...}`,
 * one or two keys for each of the seven processes, nothing else. Throws on anything else.
 */
export function parseBusPublicKeys(value: string): Map<EventParty, KeyObject[]> {
  let document: unknown;
  try {
    document = JSON.parse(value);
  } catch {
    throw new Error('must be a JSON object of each process\'s public keys ({"gateway": ["..."], ...})');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new Error('must be a JSON object of each process\'s public keys');
  const entries = document as Record<string, unknown>;
  const unknown = Object.keys(entries).find((party) => !(NATS_PARTIES as readonly string[]).includes(party));
  if (unknown) throw new Error(`names "${unknown}", which is no process of the bus`);
  const keys = new Map<EventParty, KeyObject[]>();
  const owners = new Map<string, EventParty>();
  for (const party of NATS_PARTIES) {
    const listed = entries[party];
    if (!Array.isArray(listed) || listed.length < 1 || listed.length > MAX_KEYS_PER_PARTY) throw new Error(`must list 1 or 2 keys for ${party}`);
    keys.set(
      party,
      listed.map((key) => {
        if (typeof key !== 'string') throw new Error(`lists a key of ${party} that is not a string`);
        const raw = rawKey(key, `a key of ${party}`);
        // Compared by their bytes, and by the first 8 a seal names a key by (ADR 0066): base64url spells one key 4 ways.
        const id = raw.subarray(0, 8).toString('hex');
        const other = owners.get(id);
        if (other && other !== party) throw new Error(`lists one key for both ${[other, party].sort().join(' and ')}`);
        if (other) throw new Error(`lists one key twice for ${party}`);
        owners.set(id, party);
        return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
      }),
    );
  }
  return keys;
}

/** A fresh key pair: the seed (BUS_SIGNING_KEY of its process) and its public key (for BUS_PUBLIC_KEYS). */
export function generateBusKeyPair(): { signingKey: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_PREFIX.length);
  return { signingKey: seed.toString('base64url'), publicKey: busPublicKey(privateKey) };
}

/** A key pair for every process: each one's BUS_SIGNING_KEY, and the BUS_PUBLIC_KEYS all of them read. */
export function generateBusKeys(): { signingKeys: Record<EventParty, string>; publicKeys: string } {
  const pairs = NATS_PARTIES.map((party) => [party, generateBusKeyPair()] as const);
  return {
    signingKeys: Object.fromEntries(pairs.map(([party, pair]) => [party, pair.signingKey])) as Record<EventParty, string>,
    publicKeys: JSON.stringify(Object.fromEntries(pairs.map(([party, pair]) => [party, [pair.publicKey]]))),
  };
}

// No private members below: the test helpers (compiled from source) and the services (from dist) share these types, and
// TypeScript holds two declarations of a class with private members apart. Keys stay in closures.

/** Signs for one process: what it sends carries its name and this signature (D25). */
export class BusSigner {
  /** The Ed25519 signature of `bytes`, base64url. */
  readonly sign: (bytes: Uint8Array) => string;
  /** This key's public half, the 32 bytes BUS_PUBLIC_KEYS lists. */
  readonly publicKey: Uint8Array;
  /** The key this process and the holder of `peer` (a listed public key) share for sealed messages (ADR 0066). */
  readonly sharedKey: (peer: Uint8Array) => Uint8Array;

  constructor(
    readonly party: EventParty,
    key: KeyObject,
    /** False only in a benchmark (BUS_CHECKS=off): no signature is made, nothing is sealed (ADR 0066). */
    readonly checks = true,
    /** During a rotation, the key held before (BUS_PREVIOUS_SIGNING_KEY): it only opens what was sealed for it. */
    readonly previous: BusSigner | null = null,
  ) {
    // Unchecked, a signature is random text of a signature's length: a replay guard still tells requests apart.
    this.sign = checks ? (bytes) => sign(null, bytes, key).toString('base64url') : () => randomBytes(64).toString('base64url');
    this.publicKey = Buffer.from(busPublicKey(key), 'base64url');
    const seed = key.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_PREFIX.length);
    const shared = new Map<string, Uint8Array>();
    this.sharedKey = (peer) => {
      const id = Buffer.from(peer).toString('base64url');
      let found = shared.get(id);
      if (!found) shared.set(id, (found = boxKeyOf(seed, peer)));
      return found;
    };
  }
}

/** Every process's public keys: checks that a signature is one of the named party's. */
export class BusKeys {
  /** True when `signature` (base64url) is `party`'s signature of `bytes` with any of its listed keys. */
  readonly verify: (party: EventParty, bytes: Uint8Array, signature: string) => boolean;
  /** The 32-byte public keys listed for `party` (one, or two during a rotation). */
  readonly listed: (party: EventParty) => readonly Uint8Array[];

  constructor(
    keys: ReadonlyMap<EventParty, readonly KeyObject[]>,
    /** False only in a benchmark (BUS_CHECKS=off): every signature is taken as it comes (ADR 0066). */
    readonly checks = true,
  ) {
    const raw = new Map([...keys].map(([party, listed]) => [party, listed.map((key) => new Uint8Array(Buffer.from(busPublicKey(key), 'base64url')))]));
    this.listed = (party) => raw.get(party) ?? [];
    this.verify = (party, bytes, signature) => {
      const listed = keys.get(party);
      if (!checks) return listed !== undefined;
      if (!listed || !/^[A-Za-z0-9_-]{86}$/.test(signature)) return false;
      const raw = Buffer.from(signature, 'base64url');
      // One spelling per signature: the last character's unused bits would otherwise give one signature 16 spellings,
      // each taken once by a replay guard keyed on the text.
      if (raw.toString('base64url') !== signature) return false;
      return listed.some((key) => verify(null, bytes, key, raw));
    };
  }
}

/** Fresh bus variables for one process of a new key set: its BUS_SIGNING_KEY and everyone's BUS_PUBLIC_KEYS. */
export function generateBusEnv(party: EventParty): { BUS_SIGNING_KEY: string; BUS_PUBLIC_KEYS: string } {
  const keys = generateBusKeys();
  return { BUS_SIGNING_KEY: keys.signingKeys[party], BUS_PUBLIC_KEYS: keys.publicKeys };
}
