import { EVENT_NAMES, SEALED_EVENT_FIELDS, SEALED_PAYLOAD_KEY, isEventParty, type EventName } from '@market/contracts';
import type { BusIdentity } from '../bus/bus-identity';
import { openFrom, sealFor } from '../bus/bus-sealing';

type Payload = Record<string, unknown>;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The payload as it is written and published: the fields contracts seal for the event's one reader moved into
 * `sealed`, readable by that reader only (D25, ADR 0066). Throws when one of them is missing: its reader needs it.
 */
export function sealEventFields<P extends object>(identity: BusIdentity, name: EventName, payload: P): P {
  const declared = SEALED_EVENT_FIELDS[name];
  if (!declared) return payload;
  const clear: Payload = { ...(payload as Payload) };
  const hidden: Payload = {};
  for (const field of declared.fields) {
    if (!(field in clear)) throw new Error(`${name}: ${field} is sealed for ${declared.to} and must be given`);
    hidden[field] = clear[field];
    delete clear[field];
  }
  const sealed = sealFor(identity.signer, identity.keys, declared.to, encoder.encode(JSON.stringify(hidden)));
  return { ...clear, [SEALED_PAYLOAD_KEY]: Buffer.from(sealed).toString('base64url') } as P;
}

/**
 * An event as read by the process `identity` is, its sealed fields opened when it is their reader (sealed by `sender`,
 * the writer the event names, and `signed` by it) and dropped for anyone else; or why they cannot be read (sent in
 * clear, or not sealed for this process). Anything that is not an event of a known name, or has nothing sealed, is
 * passed on for the schema check (a field missing) and the signature check.
 */
export function openEventFields(identity: BusIdentity, sender: string, decoded: unknown, signed = true): { value: unknown } | { problem: string } {
  const envelope = decoded as { name?: unknown; payload?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || typeof envelope.payload !== 'object' || envelope.payload === null) return { value: decoded };
  if (typeof envelope.name !== 'string' || !(EVENT_NAMES as readonly string[]).includes(envelope.name)) return { value: decoded };
  const declared = SEALED_EVENT_FIELDS[envelope.name as EventName];
  const { [SEALED_PAYLOAD_KEY]: sealed, ...payload } = envelope.payload as Payload;
  if (!declared) return { value: { ...envelope, payload } };
  const reader = identity.signer.party;
  // An event whose signature does not hold is refused later (after the schema check, as any other): never opened here.
  if (!signed) return { value: decoded };
  if (declared.to !== reader) {
    for (const field of declared.fields) delete payload[field];
    return { value: { ...envelope, payload } };
  }
  // Every writer seals (appendEvent): a field of the reader's in clear was written by no writer of ours.
  const clear = declared.fields.filter((field) => field in payload);
  if (clear.length > 0) return { problem: `${clear.join(', ')} sent in clear, not sealed for ${reader}` };
  if (sealed === undefined) return { value: { ...envelope, payload } };
  if (typeof sealed !== 'string' || !/^[A-Za-z0-9_-]+$/.test(sealed)) return { problem: 'its sealed fields are not base64url' };
  if (!isEventParty(sender)) return { problem: 'sealed by no process of the bus' };
  // The event's own signature proves its writer: a key already delisted may still open what was sealed for it.
  const opened = openFrom(identity.signer, identity.keys, sender, Buffer.from(sealed, 'base64url'), { provesSender: false });
  if (!opened) return { problem: `its sealed fields are not sealed for ${reader} by ${sender}` };
  let hidden: unknown;
  try {
    hidden = JSON.parse(decoder.decode(opened.bytes));
  } catch {
    return { problem: 'its sealed fields are not JSON' };
  }
  if (typeof hidden !== 'object' || hidden === null || Array.isArray(hidden)) return { problem: 'its sealed fields are not an object' };
  const keys = Object.keys(hidden).sort();
  if (keys.join() !== [...declared.fields].sort().join()) return { problem: `its sealed fields are ${keys.join(', ') || 'none'}, not ${declared.fields.join(', ')}` };
  return { value: { ...envelope, payload: { ...payload, ...hidden } } };
}
