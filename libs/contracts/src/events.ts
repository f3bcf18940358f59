import { z } from 'zod';
import { AdminActedSchema } from './admin/audit.schemas';

// Event payloads are checked where they are consumed (ADR 0028): a field missing or of the wrong type sends the event
// to the dead-letter subject instead of into a handler. Objects are not strict: a newer producer may add fields.
const id = z.string().min(1);
const text = z.string();
const time = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'Not a date-time');
const dollars = z.number().finite();
const count = z.number().int().min(0);

const accountToken = z.object({ user_id: id, username: text, email: text, token: z.string().min(1), expires_at: time });

/** What every payment.* event says about the money (D11). Money in dollars. */
export const PaymentFactsSchema = z.object({
  payment_intent_id: id,
  invoice_id: id,
  invoice_number: text,
  buyer_id: id,
  seller_id: id,
  website_title: text,
  amount: dollars,
  at: time,
  /** True when the payment went through the sandbox: no real money moved (ADR 0033). Absent from older events. */
  test_mode: z.boolean().optional(),
});
export type PaymentFacts = z.infer<typeof PaymentFactsSchema>;

const saleTerms = {
  listing_id: id,
  seller_id: id,
  title: text,
  website_url: text.nullable(),
  listing_type: z.enum(['auction', 'fixed']),
  auction_type: z.enum(['auto', 'manual']),
  starting_price: dollars,
  reserve_price: dollars.nullable(),
  buy_now_price: dollars.nullable(),
  /** The listing row's version: consumers of several listing events apply only what is newer than they have. */
  updated_at: time,
};

/** Facts published on JetStream, one schema per event name. Subject = `${prefix}.${name}`, message id = event id. */
export const EVENT_SCHEMAS = {
  'user.registered': z.object({ user_id: id, username: text, email: text, created_at: time }),
  /** Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message. */
  'user.verification_requested': accountToken,
  /** Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message. */
  'user.password_reset_requested': accountToken,
  /**
   * An account's email changed (ADR 0034): the old address is told, with a one-time link that undoes the change.
   * Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message.
   */
  'user.email_changed': z.object({ user_id: id, username: text, old_email: text, new_email: text, token: z.string().min(1), expires_at: time }),
  'user.deleted': z.object({ user_id: id, deleted_by: id }),
  /**
   * An admin suspended an account (ADR 0038): bidding rejects the member's pending bids and reprices those auctions,
   * listings pauses the member's live listings. `at` orders it against user.reactivated (separate consumers).
   */
  'user.suspended': z.object({ user_id: id, suspended_by: id, at: time }),
  /** An admin lifted a suspension (ADR 0038): listings restores exactly the listings moderation paused. */
  'user.reactivated': z.object({ user_id: id, reactivated_by: id, at: time }),
  /** A listing went live (D16): what bidding needs to run the auction (reserve included: internal only, D7). */
  'listing.approved': z.object({ ...saleTerms, approved_at: time, expires_at: time }),
  /**
   * A listing's status, featured flag or sale terms changed. Internal: it carries the reserve amount for the bidding
   * service, so whatever relays it to browsers (D21 listing_updated) must build its own message without it (D7).
   */
  'listing.updated': z.object({ ...saleTerms, status: text, featured: z.boolean(), expires_at: time.nullable() }),
  'listing.deleted': z.object({ listing_id: id, seller_id: id, deleted_by: id }),
  /**
   * An admin cancelled a listing for good, with a reason (ADR 0042): bidding ends its sale and rejects its pending bids,
   * then says so in auction.cancelled, which names the bidders to tell.
   */
  'listing.cancelled': z.object({ listing_id: id, seller_id: id, listing_title: text, reason: text, cancelled_by: id, cancelled_at: time }),
  /** A bid was accepted into an auction (D6, D9): the new price, count and end, for listings and live viewers. */
  'bid.placed': z.object({
    bid_id: id,
    listing_id: id,
    bidder_id: id,
    /** The bidder's username when the bid was placed, for live viewers (D21). */
    bidder_name: text,
    amount: dollars,
    current_bid: dollars,
    bid_count: count,
    /** Whether the current bid meets the reserve (true when there is none); never the reserve amount (D7). */
    reserve_met: z.boolean(),
    expires_at: time.nullable(),
    extended: z.boolean(),
    created_at: time,
    /** Who is told of the new bid (D19): the seller, and the bidder who led before it when that was someone else. */
    seller_id: id,
    listing_title: text,
    previous_leader_id: id.nullable(),
    /** The auction's price version after this bid (ADR 0038): listings and viewers keep the newest. Absent from older events (then bid_count was it). */
    price_version: count.optional(),
    /** Placed by the system for the bidder's maximum (ADR 0055); a maximum itself never travels in an event. Absent from older events. */
    automatic: z.boolean().optional(),
  }),
  /**
   * Bids left an auction without a sale (ADR 0038): the seller or an admin rejected a pending bid, or its bidder was
   * suspended or deleted. The public price, count and reserve state recomputed from the bids still standing; versioned
   * with bid.placed so an older state never overwrites a newer one.
   */
  'auction.repriced': z.object({
    listing_id: id,
    current_bid: dollars.nullable(),
    bid_count: count,
    /** Whether the current bid meets the reserve (true when there is none); never the reserve amount (D7). */
    reserve_met: z.boolean(),
    price_version: count,
    reason: z.enum(['bid_rejected', 'bidder_removed']),
    at: time,
  }),
  /** An offer on a fixed-price listing (D5): private between buyer and seller, it changes no public price. */
  'offer.made': z.object({
    bid_id: id,
    listing_id: id,
    seller_id: id,
    bidder_id: id,
    amount: dollars,
    created_at: time,
    /** For the seller's email; events written before it existed lack it (and are not mailed). */
    listing_title: text.optional(),
  }),
  /**
   * A bid or offer won the sale (D8): at the auction's end (`auction_win`), or accepted by the seller while the listing
   * was live (`bid_accepted`) or within the 7 days after it ended unsold (`accepted_after_close`), or a buy-now
   * purchase (`buy_now`, D4). Exactly one per listing: billing invoices the buyer from this event (D10).
   */
  'bid.accepted': z.object({
    bid_id: id,
    listing_id: id,
    listing_title: text,
    website_url: text.nullable(),
    seller_id: id,
    buyer_id: id,
    amount: dollars,
    kind: z.enum(['bid', 'offer', 'buy_now']),
    sale: z.enum(['auction_win', 'bid_accepted', 'accepted_after_close', 'buy_now']),
    accepted_at: time,
  }),
  /** The seller turned a pending bid or offer down. */
  'bid.rejected': z.object({
    bid_id: id,
    listing_id: id,
    bidder_id: id,
    amount: dollars,
    /** For the bidder's email; events written before they existed lack them (and are not mailed). */
    listing_title: text.optional(),
    kind: z.enum(['bid', 'offer', 'buy_now']).optional(),
  }),
  /**
   * A listing's sale ended, once: sold (a bid won, at the end or accepted earlier) or expired (no bids, reserve not met,
   * or a manual auction or fixed listing that ended without an accepted bid; its pending bids stay open 7 days, D8).
   * A sold outcome carries what billing needs; the invoice itself follows bid.accepted.
   */
  'auction.closed': z.object({
    listing_id: id,
    listing_title: text,
    seller_id: id,
    outcome: z.enum(['sold', 'expired']),
    reason: z.enum(['won', 'accepted', 'bought', 'no_bids', 'reserve_not_met', 'manual']),
    winning_bid_id: id.nullable(),
    buyer_id: id.nullable(),
    amount: dollars.nullable(),
    closed_at: time,
    /** Bids still open when an unsold sale ended: the seller may accept one within 7 days (D8). */
    pending_bids: count,
  }),
  /**
   * A cancelled listing's sale ended here (ADR 0042): everyone who bid, to be told why, in chunks of at most 500 so no
   * message outgrows NATS's payload limit; the first chunk also tells the seller.
   */
  'auction.cancelled': z.object({
    listing_id: id,
    listing_title: text,
    seller_id: id,
    reason: text,
    bidder_ids: z.array(id).max(500),
    notify_seller: z.boolean(),
    cancelled_at: time,
  }),
  /**
   * An unpaid sale ended (ADR 0043): its payment window passed with no card authorised (`unpaid`), or an admin cancelled
   * it (`admin_cancelled`, with the admin's reason). The invoice is cancelled in the same transaction; bidding unwinds
   * the sale and records a strike against the buyer when `strike` is true.
   */
  'sale.lapsed': z.object({
    invoice_id: id,
    invoice_number: text,
    listing_id: id,
    bid_id: id,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    kind: z.enum(['bid', 'offer', 'buy_now']),
    amount: dollars,
    lapsed_at: time,
    reason: z.enum(['unpaid', 'admin_cancelled']),
    strike: z.boolean(),
    /** The admin's reason for a cancellation; null for a lapse. */
    note: text.nullable(),
  }),
  /**
   * bidding-service unwound a sale whose invoice lapsed or was cancelled (ADR 0043): the winning bid is rejected, the
   * listing is on sale again (`active`, until its end) or ended (`expired`, its open bids the seller's second chance),
   * with the auction's recomputed public price at `price_version`. listings-service never lets `bid_id` sell it again.
   */
  'sale.unwound': z.object({
    listing_id: id,
    listing_title: text,
    bid_id: id,
    buyer_id: id,
    seller_id: id,
    status: z.enum(['active', 'expired']),
    expires_at: time.nullable(),
    current_bid: dollars.nullable(),
    bid_count: count,
    price_version: count,
    /** Bids still open after the unwinding: on an ended sale the seller may accept one for 7 days (D8). */
    pending_bids: count,
    reason: z.enum(['unpaid', 'admin_cancelled']),
    unwound_at: time,
  }),
  /** A card hold lapsed uncaptured (D11): the invoice is payable again and the buyer is told by email. */
  'invoice.hold_expired': z.object({
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    payment_intent_id: id,
    expired_at: time,
    /** The hold was a sandbox one: no real money was held (ADR 0033). */
    test_mode: z.boolean().optional(),
  }),
  /** An invoice was made for a sale (D10): the buyer is asked to pay it (D19). Money in dollars. */
  'invoice.issued': z.object({
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    total_amount: dollars,
    due_date: time,
    issued_at: time,
    /** Issued while the sandbox runs the payments: paying it moves no real money (ADR 0033). */
    test_mode: z.boolean().optional(),
  }),
  /** The buyer's card was authorised and the funds are held (D11). */
  'payment.authorized': PaymentFactsSchema,
  /** An admin released the held funds (captured, D11): the invoice is paid. */
  'payment.captured': PaymentFactsSchema,
  /** An admin refunded the payment or cancelled the hold (D11). */
  'payment.refunded': PaymentFactsSchema,
  /** The buyer disputed the transfer while the funds were held (ADR 0039): the seller is emailed; an admin decides. */
  'dispute.opened': z.object({
    dispute_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    reason: text,
    /** The buyer's own words (20 to 2000 characters). */
    message: text,
    opened_at: time,
  }),
  /**
   * A dispute ended (ADR 0039): an admin released the funds to the seller or refunded the buyer, with a note both read,
   * or the provider let the hold lapse (no note). Both parties are emailed.
   */
  'dispute.resolved': z.object({
    dispute_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    outcome: z.enum(['released', 'refunded', 'lapsed']),
    note: text.nullable(),
    closed_at: time,
  }),
  /** An open dispute's hold has under 48 hours left (ADR 0039): admins see it urgent, both parties are emailed once. */
  'dispute.escalated': z.object({
    dispute_id: id,
    invoice_id: id,
    invoice_number: text,
    buyer_id: id,
    seller_id: id,
    website_title: text,
    capture_deadline: time,
  }),
  /** A user sent another user a message (SPEC §7): the receiver is emailed (D19). */
  'message.sent': z.object({
    message_id: id,
    sender_id: id,
    receiver_id: id,
    listing_id: id.nullable(),
    subject: text,
    /** The first 500 characters, for the email. */
    preview: text,
    created_at: time,
  }),
  /** The contact form was sent (SPEC §5): stored, then mailed to support (D19). */
  'contact.received': z.object({
    contact_id: id,
    /** The signed-in sender, if any. */
    user_id: id.nullable(),
    name: text,
    email: text,
    subject: text,
    urgency: z.enum(['low', 'normal', 'high']),
    message: text,
    received_at: time,
  }),
  /** Written by the gateway for every impersonation start, stop and request. */
  'audit.recorded': z.object({
    admin_id: id,
    target_id: id,
    action: z.enum(['impersonation.start', 'impersonation.stop', 'request']),
    method: text,
    route: text,
    at: time,
  }),
  /**
   * An admin changed a user, a listing, a payment or the settings (ADR 0032): written in the change's transaction by
   * the service that made it, with the changed values before and after; never a password, token or secret.
   */
  'admin.acted': AdminActedSchema,
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
  'listing.approved': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'notifications-service', 'gateway'] },
  'listing.updated': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'gateway'] },
  'listing.deleted': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'gateway'] },
  'listing.cancelled': { writtenBy: 'listings-service', consumedBy: ['bidding-service', 'gateway'] },
  'bid.placed': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'notifications-service', 'gateway'] },
  'auction.repriced': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'gateway'] },
  'offer.made': { writtenBy: 'bidding-service', consumedBy: ['notifications-service'] },
  'bid.accepted': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'billing-service', 'notifications-service', 'gateway'] },
  'bid.rejected': { writtenBy: 'bidding-service', consumedBy: ['notifications-service'] },
  'auction.closed': { writtenBy: 'bidding-service', consumedBy: ['listings-service', 'notifications-service', 'gateway'] },
  'auction.cancelled': { writtenBy: 'bidding-service', consumedBy: ['notifications-service'] },
  'sale.lapsed': { writtenBy: 'billing-service', consumedBy: ['bidding-service', 'notifications-service'] },
  'sale.unwound': { writtenBy: 'bidding-service', consumedBy: ['listings-service'] },
  'invoice.hold_expired': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'invoice.issued': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payment.authorized': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payment.captured': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'payment.refunded': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'dispute.opened': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'dispute.resolved': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
  'dispute.escalated': { writtenBy: 'billing-service', consumedBy: ['notifications-service'] },
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

/** Payload keys that hold secrets: the outbox keeps them only until the event is published. */
export const SECRET_PAYLOAD_KEYS = ['token'] as const;

/** Where an event no consumer could read goes, inside the events stream (ADR 0028). */
export function deadLetterSubject(prefix: string, consumer: string): string {
  return `${prefix}.dead_letter.${consumer}`;
}
