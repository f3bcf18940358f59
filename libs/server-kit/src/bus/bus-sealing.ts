import { randomBytes } from 'node:crypto';
import { NATS_PARTIES, type EventParty } from '@market/contracts';
import type { BusKeys, BusSigner } from './bus-keys';
import { sodiumLoaded } from './bus-box-keys';

// A sealed message (ADR 0066): version, the sender key's id, how many recipient keys, then for each one its id and the
// message key boxed for it (crypto_box, sender to recipient), then the message under that key (crypto_secretbox).
// A key's id is the first 8 bytes of its public key. Two recipient keys only during a rotation, when a sender cannot
// know which of the two the recipient holds.
const VERSION = 0x01;
const ID = 8;
const NONCE = 24;
const KEY = 32;
const MAC = 16;
const WRAP = ID + NONCE + KEY + MAC;
const HEAD = 1 + ID + 1;

const sameId = (key: Uint8Array, bytes: Uint8Array, at: number) => {
  for (let i = 0; i < ID; i++) if (key[i] !== bytes[at + i]) return false;
  return true;
};

/** True when `bytes` are a sealed message (JSON, the bus's clear form, never starts with this byte). */
export function isSealed(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes[0] === VERSION;
}

/**
 * `bytes` sealed by `signer` for `to`: readable only with one of `to`'s listed keys (or only `recipient`, when the
 * sender knows which one it holds), and known to come from `signer`'s key.
 */
export function sealFor(signer: BusSigner, keys: BusKeys, to: EventParty, bytes: Uint8Array, recipient?: Uint8Array): Uint8Array {
  if (!signer.checks) return bytes;
  const lib = sodiumLoaded();
  const recipients = recipient ? [recipient] : keys.listed(to);
  if (recipients.length === 0) throw new Error(`${to} has no listed key to seal for`);
  const messageKey = randomBytes(KEY);
  const nonce = randomBytes(NONCE);
  const body = lib.crypto_secretbox_easy(bytes, nonce, messageKey);
  const out = new Uint8Array(HEAD + recipients.length * WRAP + NONCE + body.length);
  out[0] = VERSION;
  out.set(signer.publicKey.subarray(0, ID), 1);
  out[1 + ID] = recipients.length;
  let at = HEAD;
  for (const key of recipients) {
    const wrapNonce = randomBytes(NONCE);
    out.set(key.subarray(0, ID), at);
    out.set(wrapNonce, at + ID);
    out.set(lib.crypto_box_easy_afternm(messageKey, wrapNonce, signer.sharedKey(key)), at + ID + NONCE);
    at += WRAP;
  }
  out.set(nonce, at);
  out.set(body, at + NONCE);
  return out;
}

/** A sealed message opened: its bytes, who sealed it with which key (to seal an answer for), and its body's nonce. */
export interface OpenedSeal {
  bytes: Uint8Array;
  sender: EventParty;
  senderKey: Uint8Array;
  /** The 24 random bytes the body was sealed under: no two seals share them, so they name one message (ADR 0066). */
  nonce: Uint8Array;
}

/**
 * A message sealed by `from` for `signer`'s key, opened: its bytes and the sender's key (to seal an answer for), or
 * null when it is not sealed, not for this key, not from `from`, or altered. With `from` null, the sender is whoever's
 * listed key the seal names. crypto_box proves the pair: only the sender (or this key's holder) could have sealed it.
 * `provesSender: false` (sealed event fields, which their event's signature proves) also opens with a delisted
 * previous key.
 */
export function openFrom(signer: BusSigner, keys: BusKeys, from: EventParty | null, sealed: Uint8Array, { provesSender = true } = {}): OpenedSeal | null {
  if (!signer.checks) {
    return isSealed(sealed) ? null : { bytes: sealed, sender: from ?? signer.party, senderKey: (from && keys.listed(from)[0]) || new Uint8Array(), nonce: new Uint8Array() };
  }
  const found = isSealed(sealed) && sealed.length >= HEAD ? senderOf(keys, from, sealed) : null;
  if (!found) return null;
  // This process's key, or during a rotation the one it held before, for what was sealed before the switch. Where the
  // seal is what proves the sender (a request, a reply: ADR 0068), the old key counts only while it is still listed:
  // once delisted, whoever stole it (the usual reason to rotate) could seal with it in anyone's name.
  const previous = signer.previous && (!provesSender || keys.listed(signer.party).some((key) => Buffer.from(key).equals(Buffer.from(signer.previous!.publicKey))))
    ? signer.previous
    : null;
  for (const own of previous ? [signer, previous] : [signer]) {
    const bytes = openWith(sealed, (at) => (sameId(own.publicKey, sealed, at) ? own.sharedKey(found.key) : null));
    if (bytes) return { bytes, sender: found.party, senderKey: found.key, nonce: bodyNonce(sealed) };
  }
  return null;
}

// The listed key the seal names as its sender's (of `from`, or of any process when null).
function senderOf(keys: BusKeys, from: EventParty | null, sealed: Uint8Array): { party: EventParty; key: Uint8Array } | null {
  for (const party of from ? [from] : NATS_PARTIES) {
    const key = keys.listed(party).find((listed) => sameId(listed, sealed, 1));
    if (key) return { party, key };
  }
  return null;
}

/** The nonce the body of sealed message `sealed` was sealed under (a copy). */
export function bodyNonce(sealed: Uint8Array): Uint8Array {
  const at = HEAD + sealed[1 + ID] * WRAP;
  return sealed.slice(at, at + NONCE);
}

/**
 * A message `signer` sealed for `to`, read back by its sender (crypto_box's key is the pair's, so the sender can): what
 * a service's own outbox holds. Null when `signer` did not seal it, or it was altered.
 */
export function reopenOwn(signer: BusSigner, keys: BusKeys, to: EventParty, sealed: Uint8Array): Uint8Array | null {
  if (!signer.checks) return isSealed(sealed) ? null : sealed;
  if (!isSealed(sealed) || sealed.length < HEAD || !sameId(signer.publicKey, sealed, 1)) return null;
  return openWith(sealed, (at) => {
    const recipient = keys.listed(to).find((key) => sameId(key, sealed, at));
    return recipient ? signer.sharedKey(recipient) : null;
  });
}

// Opens the first wrap `sharedAt` has a key for (given each wrap's offset), then the message under the key it holds.
function openWith(sealed: Uint8Array, sharedAt: (at: number) => Uint8Array | null): Uint8Array | null {
  const lib = sodiumLoaded();
  const count = sealed[1 + ID];
  const bodyAt = HEAD + count * WRAP;
  if (count < 1 || sealed.length < bodyAt + NONCE + MAC) return null;
  for (let at = HEAD; at < bodyAt; at += WRAP) {
    let shared: Uint8Array | null;
    try {
      shared = sharedAt(at);
    } catch {
      // A listed key libsodium cannot use (checkBusKeys refuses one at start): nothing opens with it.
      return null;
    }
    if (!shared) continue;
    try {
      const messageKey = lib.crypto_box_open_easy_afternm(sealed.subarray(at + ID + NONCE, at + WRAP), sealed.subarray(at + ID, at + ID + NONCE), shared);
      return lib.crypto_secretbox_open_easy(sealed.subarray(bodyAt + NONCE), sealed.subarray(bodyAt, bodyAt + NONCE), messageKey);
    } catch {
      return null;
    }
  }
  return null;
}
