import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { EVENT_NAMES, isEventParty, writersOf, type EventEnvelope, type EventName, type EventParty } from '@market/contracts';
import type { BusKeys, BusSigner } from './bus-keys';
import { canonicalJson } from './canonical-json';

/** Who sent a message (a process name) and its signature, in NATS headers (D25, ADR 0065). */
export const SENDER_HEADER = 'Market-Sender';
export const SIGNATURE_HEADER = 'Market-Signature';
/** When a request's signature stops counting (epoch ms): the caller's deadline. */
export const EXPIRES_HEADER = 'Market-Expires';

/** How far another process's clock may be ahead of this one's when a request's expiry is checked. */
export const CLOCK_SKEW_MS = 5_000;
/** The longest a signed request counts for: no caller waits longer (uploads included). */
export const MAX_REQUEST_LIFETIME_MS = 120_000;

const encoder = new TextEncoder();

// What is signed names its kind, sender and where it goes, so a signature made for one thing counts for nothing else.
function signed(head: string, body: Uint8Array): Uint8Array {
  return Buffer.concat([encoder.encode(head), body]);
}
// A request names where its answer goes, and an answer names the request it answers (its signature): a captured request
// cannot be sent again with its answer redirected, nor one request's answer be handed to another.
const requestBytes = (sender: string, subject: string, reply: string, expires: string, data: Uint8Array) =>
  signed(`market-bus-1 request\n${sender}\n${subject}\n${reply}\n${expires}\n`, data);
const replyBytes = (sender: string, replySubject: string, request: string, data: Uint8Array) => signed(`market-bus-1 reply\n${sender}\n${replySubject}\n${request}\n`, data);
const eventBytes = (sender: string, event: SignedEvent) =>
  encoder.encode(`market-bus-1 event\n${sender}\n${event.id}\n${event.name}\n${event.occurred_at}\n${canonicalJson(event.payload)}`);

/** What an event's signature covers: its id, name, when it occurred (ISO, to the millisecond) and its payload. */
export interface SignedEvent {
  id: string;
  name: string;
  occurred_at: string;
  payload: unknown;
}

/**
 * The headers of a request to `subject` (as published, prefix included) whose answer goes to `reply`, signed by
 * `signer`, counting until `expires`.
 */
export function requestHeaders(signer: BusSigner, subject: string, reply: string, data: Uint8Array, expires: number): MsgHdrs {
  const headers = natsHeaders();
  const until = String(Math.floor(expires));
  headers.set(SENDER_HEADER, signer.party);
  headers.set(EXPIRES_HEADER, until);
  headers.set(SIGNATURE_HEADER, signer.sign(requestBytes(signer.party, subject, reply, until, data)));
  return headers;
}

/** The verified sender of a request, or why it is not believed: unsigned, expired, or not signed by whom it names. */
export function checkRequest(
  keys: BusKeys,
  subject: string,
  reply: string,
  headers: MsgHdrs | undefined,
  data: Uint8Array,
  now = Date.now(),
): { sender: EventParty; signature: string; expiresAt: number } | { problem: string } {
  const sender = headers?.get(SENDER_HEADER) ?? '';
  const signature = headers?.get(SIGNATURE_HEADER) ?? '';
  const expires = headers?.get(EXPIRES_HEADER) ?? '';
  if (!sender || !signature) return { problem: 'unsigned request' };
  if (!isEventParty(sender)) return { problem: 'signed by no process of the bus' };
  const until = /^\d{1,15}$/.test(expires) ? Number(expires) : NaN;
  if (!Number.isFinite(until) || until + CLOCK_SKEW_MS < now) return { problem: 'expired signature' };
  if (until > now + MAX_REQUEST_LIFETIME_MS + CLOCK_SKEW_MS) return { problem: 'signature valid for too long' };
  if (!keys.verify(sender, requestBytes(sender, subject, reply, expires, data), signature)) return { problem: `not signed by ${sender}` };
  return { sender, signature, expiresAt: until + CLOCK_SKEW_MS };
}

/** The signature a request carries ('' when none): a reply names it. */
export function requestSignature(headers: MsgHdrs | undefined): string {
  return headers?.get(SIGNATURE_HEADER) ?? '';
}

/** The headers of a reply sent to `replySubject` answering the request signed `request`, signed by the process answering. */
export function replyHeaders(signer: BusSigner, replySubject: string, request: string, data: Uint8Array): MsgHdrs {
  const headers = natsHeaders();
  headers.set(SENDER_HEADER, signer.party);
  headers.set(SIGNATURE_HEADER, signer.sign(replyBytes(signer.party, replySubject, request, data)));
  return headers;
}

/**
 * True when a reply received on `replySubject` is signed by `owner`, the service that answers the request's subject,
 * for the request this process signed `request`.
 */
export function checkReply(keys: BusKeys, owner: EventParty, replySubject: string, request: string, headers: MsgHdrs | undefined, data: Uint8Array): boolean {
  const signature = headers?.get(SIGNATURE_HEADER) ?? '';
  if (headers?.get(SENDER_HEADER) !== owner || !signature || !request) return false;
  return keys.verify(owner, replyBytes(owner, replySubject, request, data), signature);
}

/** An event's signature by its writer, made when the event is written (its id, name, time and payload; ADR 0065). */
export function eventSignature(signer: BusSigner, event: SignedEvent): { sender: EventParty; signature: string } {
  return { sender: signer.party, signature: signer.sign(eventBytes(signer.party, event)) };
}

/** The headers an event is published with: its writer and the signature made when it was written. */
export function eventHeaders(sender: string, signature: string, into: MsgHdrs = natsHeaders()): MsgHdrs {
  into.set(SENDER_HEADER, sender);
  into.set(SIGNATURE_HEADER, signature);
  return into;
}

/** Why an event received is not believed (unsigned, or not signed by a writer EVENT_FLOWS declares), or null. */
export function eventProblem(keys: BusKeys, event: SignedEvent | Pick<EventEnvelope, 'id' | 'name' | 'occurred_at' | 'payload'>, headers: MsgHdrs | undefined): string | null {
  const sender = headers?.get(SENDER_HEADER) ?? '';
  const signature = headers?.get(SIGNATURE_HEADER) ?? '';
  if (!sender || !signature) return 'unsigned event';
  if (!(EVENT_NAMES as readonly string[]).includes(event.name)) return 'no such event';
  if (!isEventParty(sender) || !writersOf(event.name as EventName).includes(sender)) return `${event.name} signed by ${sender}, which does not write it`;
  let bytes: Uint8Array;
  try {
    if (typeof event.occurred_at !== 'string' || typeof event.id !== 'string') return 'no id or time';
    bytes = eventBytes(sender, event);
  } catch (error) {
    // A payload too deep or too large to put in canonical form was never signed by anyone of ours.
    return `unreadable payload (${(error as Error).message})`;
  }
  if (!keys.verify(sender, bytes, signature)) return `not signed by ${sender}`;
  return null;
}
