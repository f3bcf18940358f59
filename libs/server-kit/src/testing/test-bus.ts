import { createInbox, JSONCodec, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import { ownerOf, SEALED_EVENT_FIELDS, writersOf, type EventEnvelope, type EventName, type EventParty } from '@market/contracts';
import { eventHeaders, eventSignature } from '../bus/bus-signatures';
import { openReply, sealReply, sealRequest, takeRequest, type TakenRequest } from '../bus/bus-requests';
import { busCryptoReady } from '../bus/bus-box-keys';
import { isSealed, reopenOwn } from '../bus/bus-sealing';
import { openEventFields, sealEventFields } from '../events/sealed-fields';
import { eventSubject } from '../events/jetstream';
import type { DataSource } from 'typeorm';
import { isolatedEnv, testBusIdentity } from './test-env';
import { signEventsWith, writerIdentity } from '../events/outbox.writer';

const codec = JSONCodec<unknown>();

/** A request sent to `party`, taken with its test key as the service would take it, or throws (ADR 0066). */
function taken(env: Record<string, string>, party: EventParty, msg: Msg): TakenRequest {
  const request = takeRequest(testBusIdentity(env, party).signer, testBusIdentity(env).keys, msg.subject, msg.reply ?? '', msg.data);
  if ('problem' in request) throw new Error(`A request on ${msg.subject} not taken by ${party}: ${request.problem}`);
  return request;
}

/** The packet of a request sent to `party`, opened with its test key, as the service would read it (ADR 0066). */
export function openRequest(env: Record<string, string>, party: EventParty, msg: Msg): Uint8Array {
  return taken(env, party, msg).packet;
}

/**
 * Answers a request as `party` would, sealed with `party`'s test key for the key that sent it: a stand-in for a service
 * in a test (D25). `readAs` reads the request with another process's key (a spoofer granted the owner's key).
 */
export function respondSigned(env: Record<string, string>, party: EventParty, msg: Msg, answer: unknown, readAs: EventParty = party): void {
  if (!msg.reply) return;
  const request = taken(env, readAs, msg);
  const identity = testBusIdentity(env, party);
  msg.respond(sealReply(identity.signer, identity.keys, request.sender, request.senderKey, msg.reply, request.nonce, codec.encode(answer)));
}

/** `packet` sealed as `party` with its test key for the owner of the full `subject`, its answer to `reply`, counting for `lifetimeMs`. */
export function sealedRequest(env: Record<string, string>, party: EventParty, subject: string, reply: string, packet: Uint8Array, lifetimeMs = 5000): Uint8Array {
  return sealedFor(env, party, subject, reply, packet, lifetimeMs).bytes;
}

function sealedFor(env: Record<string, string>, party: EventParty, subject: string, reply: string, packet: Uint8Array, lifetimeMs = 5000) {
  const owner = ownerOf(subject.slice((env.NATS_SUBJECT_PREFIX ?? '').length));
  if (!owner) throw new Error(`${subject} has no owner to seal for`);
  const identity = testBusIdentity(env, party);
  return { owner, identity, ...sealRequest(identity.signer, identity.keys, owner, subject, reply, Date.now() + lifetimeMs, packet) };
}

/**
 * Publishes an event to the test stack's stream sealed (when it has every field contracts seal) and signed by its
 * declared writer (or `as`), as the outbox relay would.
 */
export async function publishSignedEvent(nc: NatsConnection, env: Record<string, string>, envelope: EventEnvelope, options: { as?: EventParty; msgID?: string } = {}): Promise<void> {
  await busCryptoReady();
  const writer = options.as ?? writersOf(envelope.name)[0];
  const declared = SEALED_EVENT_FIELDS[envelope.name];
  const complete = declared?.fields.every((field) => field in (envelope.payload as object)) ?? false;
  const sent = complete ? { ...envelope, payload: sealEventFields(testBusIdentity(env, writer), envelope.name, envelope.payload) } : envelope;
  await nc.jetstream().publish(eventSubject(env.EVENTS_PREFIX, envelope.name), codec.encode(sent), {
    msgID: options.msgID ?? envelope.id,
    headers: signedEventHeaders(env, sent as EventEnvelope, writer),
  });
}

/**
 * A payload of `ds`'s outbox as its writer wrote it: the fields it sealed for their reader read back with the writer's
 * own key (ADR 0066). Published rows have them no more.
 */
export async function outboxPayload<P extends Record<string, unknown>>(ds: DataSource, name: EventName, payload: P): Promise<P> {
  await busCryptoReady();
  const declared = SEALED_EVENT_FIELDS[name];
  const { sealed, ...clear } = payload as P & { sealed?: string };
  const identity = writerIdentity(ds);
  if (!declared || typeof sealed !== 'string') return payload;
  if (!identity) throw new Error('This database seals as no one: open it with signingAs()');
  const bytes = reopenOwn(identity.signer, identity.keys, declared.to, Buffer.from(sealed, 'base64url'));
  if (!bytes) throw new Error(`${name}: not sealed by ${identity.signer.party}`);
  return { ...clear, ...JSON.parse(new TextDecoder().decode(bytes)) } as P;
}

/**
 * An event read off the stream (its JSON) as its declared reader reads it: the fields sealed for that process opened
 * with its test key (ADR 0066). What a test needs to follow a one-time link the emailing consumer would send.
 */
export async function openedEvent<N extends EventName>(env: Record<string, string>, decoded: unknown, sender?: EventParty): Promise<EventEnvelope<N>> {
  await busCryptoReady();
  const name = (decoded as { name?: EventName }).name as EventName;
  const reader = SEALED_EVENT_FIELDS[name]?.to ?? 'gateway';
  const opened = openEventFields(testBusIdentity(env, reader), sender ?? writersOf(name)[0], decoded);
  if ('problem' in opened) throw new Error(`${name}: ${opened.problem}`);
  return opened.value as EventEnvelope<N>;
}

/**
 * `ds` signing the events written through it as `party` would (D25), with `env`'s test keys or a set of its own: a
 * service's database opened by a test without ServiceKitModule.
 */
export function signingAs(ds: DataSource, party: EventParty, env: Record<string, string> = isolatedEnv('postgres://unused')): DataSource {
  return signEventsWith(testBusIdentity(env, party), ds);
}

/** The headers of an event signed by its declared writer (or `as`) with `env`'s test key, for a plain NATS publish. */
export function signedEventHeaders(env: Record<string, string>, envelope: EventEnvelope, as?: EventParty): MsgHdrs {
  const signed = eventSignature(testBusIdentity(env, as ?? writersOf(envelope.name)[0]).signer, envelope);
  return eventHeaders(signed.sender, signed.signature);
}

/**
 * Sends a raw request to the full `subject` as a process would, sealed as `party` for its owner (or in clear with
 * `party` null) for an inbox of its own, and answers the first reply, its bytes opened when the owner sealed them for
 * `party`: what a test hand-crafting a request needs. `lifetimeMs` (negative: already expired) is how long it counts.
 */
export async function requestAs(
  nc: NatsConnection,
  env: Record<string, string>,
  party: EventParty | null,
  subject: string,
  data: Uint8Array,
  timeoutMs = 5000,
  lifetimeMs = timeoutMs,
): Promise<{ msg: Msg; data: Uint8Array }> {
  await busCryptoReady();
  const reply = createInbox();
  const sealed = party ? sealedFor(env, party, subject, reply, data, lifetimeMs) : null;
  const msg = await nc.request(subject, sealed?.bytes ?? data, { timeout: timeoutMs, noMux: true, reply });
  const opened = sealed && isSealed(msg.data) ? openReply(sealed.identity.signer, sealed.identity.keys, sealed.owner, reply, sealed.nonce, msg.data) : null;
  if (isSealed(msg.data) && !opened) throw new Error(`A reply on ${subject} not sealed by its owner for this request`);
  return { msg, data: opened ?? msg.data };
}
