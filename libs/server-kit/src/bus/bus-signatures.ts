import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { EVENT_NAMES, isEventParty, writersOf, type EventEnvelope, type EventName, type EventParty } from '@market/contracts';
import type { BusKeys, BusSigner } from './bus-keys';
import { canonicalJson } from './canonical-json';

/** Who wrote an event (a process name) and its signature, in NATS headers (D25, ADR 0065). */
export const SENDER_HEADER = 'Market-Sender';
export const SIGNATURE_HEADER = 'Market-Signature';
const encoder = new TextEncoder();

// What is signed names its kind and sender, so a signature made for one thing counts for nothing else.
const eventBytes = (sender: string, event: SignedEvent) =>
  encoder.encode(`market-bus-1 event\n${sender}\n${event.id}\n${event.name}\n${event.occurred_at}\n${canonicalJson(event.payload)}`);

/** What an event's signature covers: its id, name, when it occurred (ISO, to the millisecond) and its payload. */
export interface SignedEvent {
  id: string;
  name: string;
  occurred_at: string;
  payload: unknown;
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
