import { createInbox, JSONCodec, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import { isEventParty, ownerOf, SEALED_EVENT_FIELDS, writersOf, type EventEnvelope, type EventName, type EventParty } from '@market/contracts';
import { eventHeaders, eventSignature, replyHeaders, requestHeaders, requestSignature, SENDER_HEADER } from '../bus/bus-signatures';
import { busCryptoReady } from '../bus/bus-box-keys';
import { isSealed, openFrom, reopenOwn, sealFor } from '../bus/bus-sealing';
import { openEventFields, sealEventFields } from '../events/sealed-fields';
import { eventSubject } from '../events/jetstream';
import type { DataSource } from 'typeorm';
import { isolatedEnv, testBusIdentity } from './test-env';
import { signEventsWith, writerIdentity } from '../events/outbox.writer';

const codec = JSONCodec<unknown>();

/** The sender a request names (a process of the bus), or throws: a stand-in answers only what a process sent. */
function senderOf(msg: Msg): EventParty {
  const sender = msg.headers?.get(SENDER_HEADER) ?? '';
  if (!isEventParty(sender)) throw new Error(`A request from "${sender}", no process of the bus`);
  return sender;
}

/** The bytes of a request sent to `party`, opened with its test key, as the service would read them (ADR 0066). */
export function openRequest(env: Record<string, string>, party: EventParty, msg: Msg): Uint8Array {
  const opened = openFrom(testBusIdentity(env, party).signer, testBusIdentity(env).keys, senderOf(msg), msg.data);
  if (!opened) throw new Error(`A request on ${msg.subject} not sealed for ${party}`);
  return opened.bytes;
}

/** Answers a request as `party` would, sealed for its sender and signed with `party`'s test key: a stand-in for a service in a test (D25). */
export function respondSigned(env: Record<string, string>, party: EventParty, msg: Msg, answer: unknown): void {
  if (!msg.reply) return;
  const identity = testBusIdentity(env, party);
  const data = sealFor(identity.signer, identity.keys, senderOf(msg), codec.encode(answer));
  msg.respond(data, { headers: replyHeaders(identity.signer, msg.reply, requestSignature(msg.headers), data) });
}

/**
 * The headers of a request to the full `subject` with its answer to `reply`, signed as `party` with its test key,
 * counting for `lifetimeMs`.
 */
export function signedRequestHeaders(env: Record<string, string>, party: EventParty, subject: string, reply: string, data: Uint8Array, lifetimeMs = 5000): MsgHdrs {
  return requestHeaders(testBusIdentity(env, party).signer, subject, reply, data, Date.now() + lifetimeMs);
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
 * Sends a raw request to the full `subject` as a process would, sealed for its owner and signed as `party` (or in clear
 * and unsigned with `party` null) for an inbox of its own, and answers the first reply with its bytes opened when they
 * are sealed for `party`: what a test hand-crafting a request needs.
 */
export async function requestAs(
  nc: NatsConnection,
  env: Record<string, string>,
  party: EventParty | null,
  subject: string,
  data: Uint8Array,
  timeoutMs = 5000,
): Promise<{ msg: Msg; data: Uint8Array }> {
  await busCryptoReady();
  const reply = createInbox();
  const owner = ownerOf(subject.slice((env.NATS_SUBJECT_PREFIX ?? '').length));
  const identity = party ? testBusIdentity(env, party) : null;
  const sent = identity && owner ? sealFor(identity.signer, identity.keys, owner, data) : data;
  const msg = await nc.request(subject, sent, { timeout: timeoutMs, noMux: true, reply, headers: party ? signedRequestHeaders(env, party, subject, reply, sent) : undefined });
  const opened = identity && owner && isSealed(msg.data) ? openFrom(identity.signer, identity.keys, owner, msg.data) : null;
  if (isSealed(msg.data) && !opened) throw new Error(`A reply on ${subject} sealed for someone else`);
  return { msg, data: opened?.bytes ?? msg.data };
}
