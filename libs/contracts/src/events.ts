/** Facts published on JetStream. Subject = `${prefix}.${name}`, message id = event id. */
export interface EventPayloads {
  'user.registered': {
    user_id: string;
    username: string;
    email: string;
    created_at: string;
  };
  /** Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message. */
  'user.verification_requested': {
    user_id: string;
    username: string;
    email: string;
    token: string;
    expires_at: string;
  };
  /** Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message. */
  'user.password_reset_requested': {
    user_id: string;
    username: string;
    email: string;
    token: string;
    expires_at: string;
  };
  'user.deleted': {
    user_id: string;
    deleted_by: string;
  };
  /** A listing went live (D16): what bidding needs to run the auction (reserve included: internal only, D7). */
  'listing.approved': {
    listing_id: string;
    seller_id: string;
    title: string;
    website_url: string | null;
    listing_type: 'auction' | 'fixed';
    auction_type: 'auto' | 'manual';
    starting_price: number;
    reserve_price: number | null;
    buy_now_price: number | null;
    approved_at: string;
    expires_at: string;
    /** The listing row's version: consumers of several listing events apply only what is newer than they have. */
    updated_at: string;
  };
  /**
   * A listing's status, featured flag or sale terms changed. Internal: it carries the reserve amount for the bidding
   * service, so whatever relays it to browsers (D21 listing_updated) must build its own message without it (D7).
   */
  'listing.updated': {
    listing_id: string;
    seller_id: string;
    title: string;
    website_url: string | null;
    status: string;
    featured: boolean;
    listing_type: 'auction' | 'fixed';
    auction_type: 'auto' | 'manual';
    starting_price: number;
    reserve_price: number | null;
    buy_now_price: number | null;
    expires_at: string | null;
    /** The listing row's version (see listing.approved). */
    updated_at: string;
  };
  'listing.deleted': {
    listing_id: string;
    seller_id: string;
    deleted_by: string;
  };
  /** A bid was accepted into an auction (D6, D9): the new price, count and end, for listings and live viewers. */
  'bid.placed': {
    bid_id: string;
    listing_id: string;
    bidder_id: string;
    /** The bidder's username when the bid was placed, for live viewers (D21). */
    bidder_name: string;
    amount: number;
    current_bid: number;
    bid_count: number;
    /** Whether the current bid meets the reserve (true when there is none); never the reserve amount (D7). */
    reserve_met: boolean;
    expires_at: string | null;
    extended: boolean;
    created_at: string;
    /** Who is told of the new bid (D19): the seller, and the bidder who led before it when that was someone else. */
    seller_id: string;
    listing_title: string;
    previous_leader_id: string | null;
  };
  /** An offer on a fixed-price listing (D5): private between buyer and seller, it changes no public price. */
  'offer.made': {
    bid_id: string;
    listing_id: string;
    seller_id: string;
    bidder_id: string;
    amount: number;
    created_at: string;
  };
  /**
   * A bid or offer won the sale (D8): at the auction's end (`auction_win`), or accepted by the seller while the listing
   * was live (`bid_accepted`) or within the 7 days after it ended unsold (`accepted_after_close`), or a buy-now
   * purchase (`buy_now`, D4). Exactly one per listing: billing invoices the buyer from this event (D10).
   */
  'bid.accepted': {
    bid_id: string;
    listing_id: string;
    listing_title: string;
    website_url: string | null;
    seller_id: string;
    buyer_id: string;
    amount: number;
    kind: 'bid' | 'offer' | 'buy_now';
    sale: 'auction_win' | 'bid_accepted' | 'accepted_after_close' | 'buy_now';
    accepted_at: string;
  };
  /** The seller turned a pending bid or offer down. */
  'bid.rejected': {
    bid_id: string;
    listing_id: string;
    bidder_id: string;
    amount: number;
  };
  /**
   * A listing's sale ended, once: sold (a bid won, at the end or accepted earlier) or expired (no bids, reserve not met,
   * or a manual auction or fixed listing that ended without an accepted bid; its pending bids stay open 7 days, D8).
   * A sold outcome carries what billing needs; the invoice itself follows bid.accepted.
   */
  'auction.closed': {
    listing_id: string;
    listing_title: string;
    seller_id: string;
    outcome: 'sold' | 'expired';
    reason: 'won' | 'accepted' | 'bought' | 'no_bids' | 'reserve_not_met' | 'manual';
    winning_bid_id: string | null;
    buyer_id: string | null;
    amount: number | null;
    closed_at: string;
    /** Bids still open when an unsold sale ended: the seller may accept one within 7 days (D8). */
    pending_bids: number;
  };
  /** A card hold lapsed uncaptured (D11): the invoice is payable again and the buyer is told (issue 7). */
  'invoice.hold_expired': {
    invoice_id: string;
    invoice_number: string;
    buyer_id: string;
    seller_id: string;
    website_title: string;
    payment_intent_id: string;
    expired_at: string;
  };
  /** An invoice was made for a sale (D10): the buyer is asked to pay it (D19). Money in dollars. */
  'invoice.issued': {
    invoice_id: string;
    invoice_number: string;
    buyer_id: string;
    seller_id: string;
    website_title: string;
    total_amount: number;
    due_date: string;
    issued_at: string;
  };
  /** The buyer's card was authorised and the funds are held (D11). */
  'payment.authorized': PaymentFacts;
  /** An admin released the held funds (captured, D11): the invoice is paid. */
  'payment.captured': PaymentFacts;
  /** An admin refunded the payment or cancelled the hold (D11). */
  'payment.refunded': PaymentFacts;
  /** A user sent another user a message (SPEC §7): the receiver is emailed (D19). */
  'message.sent': {
    message_id: string;
    sender_id: string;
    receiver_id: string;
    listing_id: string | null;
    subject: string;
    /** The first 500 characters, for the email. */
    preview: string;
    created_at: string;
  };
  /** The contact form was sent (SPEC §5): stored, then mailed to support (D19). */
  'contact.received': {
    contact_id: string;
    /** The signed-in sender, if any. */
    user_id: string | null;
    name: string;
    email: string;
    subject: string;
    urgency: 'low' | 'normal' | 'high';
    message: string;
    received_at: string;
  };
  /** Written by the gateway for every impersonation start, stop and request. */
  'audit.recorded': {
    admin_id: string;
    target_id: string;
    action: 'impersonation.start' | 'impersonation.stop' | 'request';
    method: string;
    route: string;
    at: string;
  };
}
export type EventName = keyof EventPayloads;

/** What every payment.* event says about the money (D11). Money in dollars. */
export interface PaymentFacts {
  payment_intent_id: string;
  invoice_id: string;
  invoice_number: string;
  buyer_id: string;
  seller_id: string;
  website_title: string;
  amount: number;
  at: string;
}

export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  occurred_at: string;
  /** The request that caused the fact, so consumers' log lines can be joined to it. */
  request_id: string | null;
  payload: EventPayloads[N];
}

/** Payload keys that hold secrets: the outbox keeps them only until the event is published. */
export const SECRET_PAYLOAD_KEYS = ['token'] as const;
