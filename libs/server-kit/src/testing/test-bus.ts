import { createInbox, JSONCodec, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import { writersOf, type EventEnvelope, type EventParty } from '@market/contracts';
import { eventHeaders, eventSignature, replyHeaders, requestHeaders, requestSignature } from '../bus/bus-signatures';
import { eventSubject } from '../events/jetstream';
import type { DataSource } from 'typeorm';
import { isolatedEnv, testBusIdentity } from './test-env';
import { signEventsWith } from '../events/outbox.writer';

const codec = JSONCodec<unknown>();

/** Answers a request as `party` would, signed with its test key: a stand-in for a service in a test (D25). */
export function respondSigned(env: Record<string, string>, party: EventParty, msg: Msg, answer: unknown): void {
  if (!msg.reply) return;
  const data = codec.encode(answer);
  msg.respond(data, { headers: replyHeaders(testBusIdentity(env, party).signer, msg.reply, requestSignature(msg.headers), data) });
}

/**
 * The headers of a request to the full `subject` with its answer to `reply`, signed as `party` with its test key,
 * counting for `lifetimeMs`.
 */
export function signedRequestHeaders(env: Record<string, string>, party: EventParty, subject: string, reply: string, data: Uint8Array, lifetimeMs = 5000): MsgHdrs {
  return requestHeaders(testBusIdentity(env, party).signer, subject, reply, data, Date.now() + lifetimeMs);
}

/** Publishes an event to the test stack's stream signed by its declared writer (or `as`), as the outbox relay would. */
export async function publishSignedEvent(nc: NatsConnection, env: Record<string, string>, envelope: EventEnvelope, options: { as?: EventParty; msgID?: string } = {}): Promise<void> {
  await nc.jetstream().publish(eventSubject(env.EVENTS_PREFIX, envelope.name), codec.encode(envelope), {
    msgID: options.msgID ?? envelope.id,
    headers: signedEventHeaders(env, envelope, options.as),
  });
}

/**
 * `ds` signing the events written through it as `party` would (D25), with `env`'s test keys or a set of its own: a
 * service's database opened by a test without ServiceKitModule.
 */
export function signingAs(ds: DataSource, party: EventParty, env: Record<string, string> = isolatedEnv('postgres://unused')): DataSource {
  return signEventsWith(testBusIdentity(env, party).signer, ds);
}

/** The headers of an event signed by its declared writer (or `as`) with `env`'s test key, for a plain NATS publish. */
export function signedEventHeaders(env: Record<string, string>, envelope: EventEnvelope, as?: EventParty): MsgHdrs {
  const signed = eventSignature(testBusIdentity(env, as ?? writersOf(envelope.name)[0]).signer, envelope);
  return eventHeaders(signed.sender, signed.signature);
}

/**
 * Sends a raw request to the full `subject` as a process would, signed as `party` (or unsigned with `party` null) for
 * an inbox of its own, and answers the first reply: what a test hand-crafting a request needs.
 */
export async function requestAs(nc: NatsConnection, env: Record<string, string>, party: EventParty | null, subject: string, data: Uint8Array, timeoutMs = 5000): Promise<Msg> {
  const reply = createInbox();
  return nc.request(subject, data, { timeout: timeoutMs, noMux: true, reply, headers: party ? signedRequestHeaders(env, party, subject, reply, data) : undefined });
}
