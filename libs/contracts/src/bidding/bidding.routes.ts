import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import { BuyingHoldSchema, BuyingHoldsResponseSchema } from './buying-hold.schemas';
import { BidActionResponseSchema, BidActionSchema, BidHistoryResponseSchema, MyStandingSchema, PlaceBidResponseSchema, PlaceBidSchema, UserBidsResponseSchema } from './bid.schemas';

const ListingPath = z.object({ id: UuidSchema });
const BidPath = z.object({ id: UuidSchema });

/** Bids and offers (SPEC §7). */
export const BIDDING_ROUTES = {
  place: defineRoute({
    method: 'post',
    path: '/bids',
    tag: 'bids',
    summary: 'Bid on an auction, or make an offer on a fixed-price listing',
    description:
      'Whole dollars. On an auction the bid must reach the minimum next bid (D6); on a fixed price it is a private offer (D5). ' +
      '403 while the bidder has not verified their email and the platform requires it (ADR 0037). ' +
      '503 with Retry-After when too many bids wait on the listing (ADR 0058): nothing was changed.',
    auth: 'user',
    body: PlaceBidSchema,
    idempotent: true,
    status: 201,
    reply: PlaceBidResponseSchema,
    errors: [400, 403, 404, 409],
  }),
  act: defineRoute({
    method: 'post',
    path: '/bids/{id}/action',
    tag: 'bids',
    summary: 'The seller accepts or rejects a pending bid or offer',
    description:
      "Only the listing's seller (403 for anyone else), and only a pending bid (400 once decided). Accepting sells the listing to that " +
      'bidder, rejects every other pending bid and makes the invoice; after an unsold end it is still possible for 7 days, but never for ' +
      "a suspended or deleted member's bid (400). A rejected bidder is emailed.",
    auth: 'user',
    params: BidPath,
    body: BidActionSchema,
    status: 201,
    reply: BidActionResponseSchema,
    errors: [400, 403, 404, 409],
  }),
  userBids: defineRoute({
    method: 'get',
    path: '/user/bids',
    tag: 'bids',
    summary: "The caller's bids as buyer and the bids on their listings as seller (My Bids)",
    description:
      'Bids and offers together, newest first, at most 500. `is_winning` marks an accepted bid or the highest pending bid of a sale not ' +
      "yet sold; `max_amount` appears only on the caller's own bids as buyer, never on the bids on their listings (ADR 0055).",
    auth: 'user',
    status: 200,
    reply: UserBidsResponseSchema,
  }),
  myStanding: defineRoute({
    method: 'get',
    path: '/listings/{id}/my-standing',
    tag: 'bids',
    summary: "The caller's own standing on one listing: leading, their maximum, whether it was passed",
    description:
      'Only the caller\'s own data (ADR 0060): whether they have bid here, whether they lead, their own maximum (ADR 0055) and ' +
      'whether it was passed. A listing they never bid on (or one bidding has not heard of) answers has_bid false, not 404.',
    auth: 'user',
    params: ListingPath,
    status: 200,
    reply: MyStandingSchema,
  }),
  history: defineRoute({
    method: 'get',
    path: '/listings/{id}/bids',
    tag: 'bids',
    summary: "A listing's latest 10 bids, newest first",
    description:
      'No sign-in needed. Public bids only: offers, and bids withdrawn before the end (ADR 0038), are left out; each names its bidder by ' +
      'username, never a maximum. A listing without bids answers an empty list.',
    auth: 'public',
    params: ListingPath,
    status: 200,
    reply: BidHistoryResponseSchema,
    errors: [404],
  }),
};

/** An admin lifts a member's buying hold (ADR 0043). */
export const ADMIN_BUYING_ROUTES = {
  holds: defineRoute({
    method: 'get',
    path: '/admin/buying-holds',
    tag: 'admin',
    summary: 'Members whose buying is on hold',
    description: 'Members with two unpaid purchases (lapsed invoices) within 90 days not lifted by an admin, at most 1000 (ADR 0043).',
    auth: 'admin',
    status: 200,
    reply: BuyingHoldsResponseSchema,
  }),
  liftHold: defineRoute({
    method: 'post',
    path: '/admin/users/{id}/lift-buying-hold',
    tag: 'admin',
    summary: "Lift a member's buying hold",
    description:
      'Two unpaid purchases (lapsed invoices) within 90 days put a member\'s bids, offers and buy-now on hold (403). This clears the strikes counted so far; audited (ADR 0032, 0043). Lifting a member without a hold changes nothing.',
    auth: 'admin',
    params: z.object({ id: UuidSchema }),
    status: 200,
    reply: BuyingHoldSchema,
    errors: [403],
  }),
};
