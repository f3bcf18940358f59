import type { EventParty } from '@market/contracts';
import type { BusKeys, BusSigner } from './bus-keys';
import { bodyNonce, openFrom, sealFor } from './bus-sealing';

/** How far another process's clock may be ahead of this one's when a request's expiry is checked. */
export const CLOCK_SKEW_MS = 5_000;
/** The longest a request counts for: no caller waits longer (uploads included). */
export const MAX_REQUEST_LIFETIME_MS = 120_000;

// A request and its reply are authenticated by their seal alone (ADR 0066, amended): crypto_box's key belongs to the
// pair, so a message that opens was sealed by the other holder of it. What the seal covers begins with a frame naming
// its kind, its sender, where it goes and, for a request, when it stops counting; for a reply, the request it answers.
// Framed, a request's seal counts for nothing on another subject or with its answer sent elsewhere, and a reply sent
// back to the service that sealed it is no request (the pair's key is one for both directions).
const REQUEST = 'market-bus-2 request';
const REPLY = 'market-bus-2 reply';
const NEWLINE = 0x0a;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const framed = (head: string[], body: Uint8Array) => {
  const text = encoder.encode(`${head.join('\n')}\n`);
  const out = new Uint8Array(text.length + body.length);
  out.set(text);
  out.set(body, text.length);
  return out;
};

// The `lines` first lines of `bytes` and what follows them, or null when there are fewer (at most 2 KB of head).
function unframe(bytes: Uint8Array, lines: number): { head: string[]; body: Uint8Array } | null {
  const head: string[] = [];
  let start = 0;
  for (let at = 0; at < bytes.length && at < 2048 && head.length < lines; at++) {
    if (bytes[at] !== NEWLINE) continue;
    head.push(decoder.decode(bytes.subarray(start, at)));
    start = at + 1;
  }
  return head.length === lines ? { head, body: bytes.subarray(start) } : null;
}

/** A request sealed for its subject's owner: the bytes to publish, and the nonce its reply must name. */
export interface SealedRequest {
  bytes: Uint8Array;
  nonce: string;
}

/**
 * `packet` sealed by `signer` for `owner`, the service answering `subject` (as published, prefix included), its answer
 * going to `reply`, counting until `expires` (epoch ms).
 */
export function sealRequest(signer: BusSigner, keys: BusKeys, owner: EventParty, subject: string, reply: string, expires: number, packet: Uint8Array): SealedRequest {
  const bytes = sealFor(signer, keys, owner, framed([REQUEST, signer.party, subject, reply, String(Math.floor(expires))], packet));
  return { bytes, nonce: nonceOf(signer, bytes) };
}

/** A request taken: its packet, who sealed it with which key, its nonce (what a replay repeats) and until when it counts. */
export interface TakenRequest {
  sender: EventParty;
  senderKey: Uint8Array;
  packet: Uint8Array;
  nonce: string;
  expiresAt: number;
}

/** Why a request is not believed; `refused` when it opened and only its time is wrong (its sender can be told). */
export interface RefusedRequest {
  problem: string;
  refused?: TakenRequest;
}

/**
 * The request received on `subject` for an answer on `reply`, opened by `signer`: or why it is not believed (not
 * sealed for this process by one of the bus, sealed for another subject or answer, expired).
 */
export function takeRequest(signer: BusSigner, keys: BusKeys, subject: string, reply: string, data: Uint8Array, now = Date.now()): TakenRequest | RefusedRequest {
  const opened = openFrom(signer, keys, null, data);
  if (!opened) return { problem: `not sealed for ${signer.party} by a process of the bus` };
  const frame = unframe(opened.bytes, 5);
  if (!frame || frame.head[0] !== REQUEST) return { problem: 'not a request' };
  const [, sender, sealedSubject, sealedReply, expires] = frame.head;
  // Unchecked (a benchmark), the frame's sender is taken as it comes; checked, the seal's key names it.
  if (sender !== opened.sender && signer.checks) return { problem: `sealed by ${opened.sender} in the name of ${sender}` };
  if (sealedSubject !== subject || sealedReply !== reply) return { problem: 'sealed for another subject or answer' };
  const until = /^\d{1,15}$/.test(expires) ? Number(expires) : NaN;
  const request = { sender: sender as EventParty, senderKey: opened.senderKey, packet: frame.body, nonce: nonceText(signer, opened.nonce), expiresAt: until + CLOCK_SKEW_MS };
  // Sealed by its sender for this very subject and inbox, yet out of time (a clock far off): its sender is told why.
  // Expired at its last millisecond: the replay guard forgets a nonce at that very moment.
  if (!Number.isFinite(until) || until + CLOCK_SKEW_MS <= now) return { problem: 'expired', refused: request };
  if (until > now + MAX_REQUEST_LIFETIME_MS + CLOCK_SKEW_MS) return { problem: 'valid for too long', refused: request };
  return request;
}

/** `data` answering the request `request` (its nonce), sealed by `signer` for the key that sealed it, for the inbox `reply`. */
export function sealReply(signer: BusSigner, keys: BusKeys, to: EventParty, toKey: Uint8Array, reply: string, request: string, data: Uint8Array): Uint8Array {
  return sealFor(signer, keys, to, framed([REPLY, signer.party, reply, request], data), signer.checks ? toKey : undefined);
}

/**
 * The answer in a reply received on `reply` to the request this process sealed with nonce `request`, sealed for it by
 * `owner`; null when it is anything else (a spoofed answer is ignored and the caller waits on).
 */
export function openReply(signer: BusSigner, keys: BusKeys, owner: EventParty, reply: string, request: string, data: Uint8Array): Uint8Array | null {
  const opened = openFrom(signer, keys, owner, data);
  const frame = opened ? unframe(opened.bytes, 4) : null;
  if (!frame) return null;
  const [kind, sender, sealedReply, answered] = frame.head;
  return kind === REPLY && sender === owner && sealedReply === reply && answered === request ? frame.body : null;
}

// Unchecked (a benchmark), nothing is sealed: there is no nonce, and no reply is bound to its request.
const nonceText = (signer: BusSigner, nonce: Uint8Array) => (signer.checks ? Buffer.from(nonce).toString('base64url') : '');
const nonceOf = (signer: BusSigner, sealed: Uint8Array) => nonceText(signer, signer.checks ? bodyNonce(sealed) : new Uint8Array());
