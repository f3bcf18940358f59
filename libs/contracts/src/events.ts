import { z } from 'zod';
import { ACCOUNT_EVENTS } from './events/accounts.events';
import { ADMIN_EVENTS } from './events/admin.events';
import { BIDDING_EVENTS } from './events/bidding.events';
import { BILLING_EVENTS } from './events/billing.events';
import { time } from './events/fields.schemas';
import { LISTING_EVENTS } from './events/listings.events';
export { SAVED_SEARCH_MATCHES_PER_EVENT } from './events/listings.events';
import { MESSAGE_EVENTS } from './events/messages.events';
import { SALE_EVENTS } from './events/sales.events';

export { PaymentFactsSchema, type PaymentFacts } from './events/billing.events';

/**
 * Facts published on JetStream, one schema per event name. Subject = `${prefix}.${name}`, message id = event id. The
 * schemas live by domain in events/; the order here is the order of EVENT_NAMES.
 */
export const EVENT_SCHEMAS = {
  ...ACCOUNT_EVENTS,
  ...LISTING_EVENTS,
  ...BIDDING_EVENTS,
  ...SALE_EVENTS,
  ...BILLING_EVENTS,
  ...MESSAGE_EVENTS,
  ...ADMIN_EVENTS,
};

export type EventName = keyof typeof EVENT_SCHEMAS;
export type EventPayloads = { [N in EventName]: z.infer<(typeof EVENT_SCHEMAS)[N]> };
/** Every event name, for documentation and the docs check. */
export const EVENT_NAMES = Object.keys(EVENT_SCHEMAS) as EventName[];

export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  occurred_at: string;
  /** The request that caused the fact, so consumers' log lines can be joined to it. */
  request_id: string | null;
  payload: EventPayloads[N];
}

/** The envelope as read off the stream, before its payload is checked against its event's schema. */
export const EventEnvelopeSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.enum(EVENT_NAMES as [EventName, ...EventName[]]),
  occurred_at: time,
  request_id: z.string().max(200).nullable(),
  payload: z.unknown(),
});

/** Checks an event read off the stream: the envelope, then its payload by name; returns the problem or the event. */
export function parseEvent(value: unknown): { event: EventEnvelope } | { problem: string } {
  const envelope = EventEnvelopeSchema.safeParse(value);
  if (!envelope.success) return { problem: `malformed envelope: ${z.prettifyError(envelope.error)}` };
  const payload = EVENT_SCHEMAS[envelope.data.name].safeParse(envelope.data.payload);
  if (!payload.success) return { problem: `malformed ${envelope.data.name} payload: ${z.prettifyError(payload.error)}` };
  return { event: { ...envelope.data, payload: payload.data } as EventEnvelope };
}

/** The processes that write or read events: the six services, and the gateway (live feed, browse cache, audit). */
export type EventParty = 'gateway' | 'auth-service' | 'listings-service' | 'bidding-service' | 'billing-service' | 'admin-service' | 'notifications-service';

/**
 * Who writes each event and who consumes it, declared once (ADR 0028): a process may only subscribe to an event that
 * names it here (EventConsumers refuses otherwise), the docs check compares docs/architecture.md with it, and a system
 * test compares it with the durable consumers a started system creates. Every event has at least one consumer.
 */
export const EVENT_FLOWS: {
  readonly [N in EventName]: { readonly writtenBy: EventParty | readonly EventParty[]; readonly consumedBy: readonly EventParty[] };
} = {
  'user.registered': { writtenBy: 'auth-service', consumedBy: ['notifications-service'] },
  'user.verification_requested': { writtenBy: 'auth-service', consumedBy: ['notifications-service'] },
  'user.password_reset_requested': { writtenBy: 'auth-service', consumedBy: ['notifications-service'] },
  'user.email_changed': { writtenBy: 'auth-service', consumedBy: ['notifications-service'] },
  'user.deleted': { writtenBy: 'auth-service', consumedBy: ['listings-service', 'bidding-service', 'billing-service'] },
  'user.suspended': { writtenBy: 'auth-service', consumedBy: ['listings-service', 'bidding-service', 'billing-service'] },
  'user.reactivated': { writtenBy: 'auth-service', consumedBy: ['listings-service', 'bidding-service'] },
  'listing.approved': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'notifications-service', 'gateway', 'listings-service'] },
  'listing.updated': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'gateway'] },
  'listing.deleted': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'gateway'] },
  'listing.cancelled': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'gateway'] },
  'saved_search.matched': { writtenBy: 'listings-service', consumedBy: ['notifications-service'] },
  'watch.ending_soon': { writtenBy: 'listings-service', consumedBy: ['notifications-service'] },
  'bid.placed': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'notifications-service', 'gateway'] },
  'auction.repriced': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'gateway'] },
  'offer.made': { writtenBy: 'bidding-service', consumedBy: ['notifications-service'] },
  'bid.accepted': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'billing-service', 'notifications-service', 'gateway'] },
  'bid.rejected': { writtenBy: 'bidding-service', consumedBy: ['notifications-service'] },
  'auction.closed': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'notifications-service', 'gateway'] },
  'auction.cancelled': { writtenBy: 'bidding-service', consumedBy: ['notifications-service'] },
  'sale.lapsed': { writtenBy: 'billing-service', consumedBy: ['bidding-service', 'notifications-service'] },
  'sale.unwound': { writtenBy: 'bidding-service', consumedBy: ['listings-service'] },
  'sale.completed': { writtenBy: 'billing-service', consumedBy: ['listings-service', 'notifications-service'] },
  'invoice.hold_expired': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'invoice.issued': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payment.authorized': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payment.captured': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payment.refunded': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'dispute.opened': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'dispute.resolved': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'dispute.escalated': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payout.sent': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payout.waiting': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'message.sent': { writtenBy: 'notifications-service', consumedBy: ['notifications-service'] },
  'contact.received': { writtenBy: 'notifications-service', consumedBy: ['notifications-service'] },
  'audit.recorded': { writtenBy: 'gateway', consumedBy: ['admin-service'] },
  // Each service records its own admins' acts (ADR 0032).
  'admin.acted': { writtenBy: ['auth-service', 'admin-service', 'billing-service', 'listings-service', 'bidding-service'], consumedBy: ['admin-service'] },
};

const EVENT_PARTIES: readonly string[] = ['gateway', 'auth-service', 'listings-service', 'bidding-service', 'billing-service', 'admin-service', 'notifications-service'];

/** True for one of the marketplace's processes (tests may run consumers under names of their own, which are not). */
export function isEventParty(name: string): name is EventParty {
  return EVENT_PARTIES.includes(name);
}

/** True when contracts name this process as a consumer of the event (EVENT_FLOWS). */
export function mayConsume(party: EventParty, name: EventName): boolean {
  return EVENT_FLOWS[name].consumedBy.includes(party);
}

/**
 * Private fields of events, sealed by the writer for the one process that reads them (D25, ADR 0066): on the bus and
 * in the stream the payload carries them only inside its `sealed` field, which that reader opens; no other consumer
 * ever has them (the schemas of events with other consumers make them optional for that reason). Emails, one-time
 * tokens, reserves, offers, what people wrote (messages, disputes, an admin's notes) and the money a seller is paid.
 */
export const SEALED_EVENT_FIELDS: { readonly [N in EventName]?: { readonly to: EventParty; readonly fields: readonly (keyof EventPayloads[N] & string)[] } } = {
  'user.registered': { to: 'notifications-service', fields: ['email'] },
  'user.verification_requested': { to: 'notifications-service', fields: ['email', 'token'] },
  'user.password_reset_requested': { to: 'notifications-service', fields: ['email', 'token'] },
  'user.email_changed': { to: 'notifications-service', fields: ['old_email', 'new_email', 'token'] },
  'listing.approved': { to: 'bidding-service', fields: ['reserve_price'] },
  'listing.updated': { to: 'bidding-service', fields: ['reserve_price'] },
  'offer.made': { to: 'notifications-service', fields: ['bidder_id', 'amount'] },
  'bid.rejected': { to: 'notifications-service', fields: ['amount'] },
  'sale.lapsed': { to: 'notifications-service', fields: ['note'] },
  'dispute.opened': { to: 'notifications-service', fields: ['reason', 'message'] },
  'dispute.resolved': { to: 'notifications-service', fields: ['note'] },
  'payout.sent': { to: 'notifications-service', fields: ['gross', 'fee', 'net'] },
  'payout.waiting': { to: 'notifications-service', fields: ['net'] },
  'message.sent': { to: 'notifications-service', fields: ['subject', 'preview'] },
  'contact.received': { to: 'notifications-service', fields: ['name', 'email', 'subject', 'message'] },
  'admin.acted': { to: 'admin-service', fields: ['before', 'after'] },
};

/** The payload field that carries an event's sealed fields (base64url). */
export const SEALED_PAYLOAD_KEY = 'sealed';

/**
 * Payload keys the outbox keeps only until the event is published, and a dead letter never keeps: one-time tokens of
 * events written before sealing (ADR 0008), and the sealed fields.
 */
export const SECRET_PAYLOAD_KEYS = ['token', SEALED_PAYLOAD_KEY] as const;

/** Where an event no consumer could read goes, inside the events stream (ADR 0028). */
export function deadLetterSubject(prefix: string, consumer: string): string {
  return `${prefix}.dead_letter.${consumer}`;
}
