import type { Actor } from '@market/contracts';
import { isPubliclyVisible } from '@market/domain';
import { badRequest, forbidden, isRealAdmin, notFound } from '@market/server-kit';
import type { ListingRecord } from './listings.repository';

type Listed = Pick<ListingRecord, 'seller_id' | 'status'>;

/** What one actor may do with one listing: the one place listings-service decides it (ADR 0069). */
export interface ListingAbilities {
  /** See it at all: a public status, or a listing they manage (anything else reads as not found). */
  read: boolean;
  /** Edit, pause, activate or delete it, and see its seller-only parts (the reserve, D7): its seller, or a real admin. */
  update: boolean;
  /** Act past the seller's rules: delete a sold or cancelled listing, approve one, bring an ended one back (D16). */
  moderate: boolean;
  /** A change of theirs is an admin's act on another member's listing, audited with it (ADR 0032). */
  audited: boolean;
  /** Prove control of the listed site (the ownership check, D24): its seller only; an admin cannot vouch for them. */
  proveOwnership: boolean;
  /** Put it on their watchlist: a member, on a listing the public can see that is not their own. */
  watch: boolean;
}

/** The abilities of `actor` (null: a visitor) on `listing`. An impersonating admin has the member's, never an admin's (D14). */
export function listingAbilities(actor: Actor | null, listing: Listed): ListingAbilities {
  const admin = isRealAdmin(actor);
  const own = actor !== null && actor.user_id === listing.seller_id;
  const update = own || admin;
  const open = isPubliclyVisible(listing.status);
  return { read: open || update, update, moderate: admin, audited: admin && !own, proveOwnership: own, watch: actor !== null && !own && open };
}

/** Refuses `actor` a listing they may not read (404, as if it did not exist) or may read but not change (403). */
export function authorizeListingUpdate(actor: Actor, listing: Listed | null, notFoundDetail: string): asserts listing is Listed {
  const abilities = listing ? listingAbilities(actor, listing) : null;
  if (!listing || !abilities?.read) throw notFound(notFoundDetail);
  if (!abilities.update) throw forbidden('You can only change your own listings');
}

/** Refuses a watch of one's own listing (400, said as it is) or of one the public cannot see (404, like a missing one). */
export function authorizeWatch(actor: Actor, listing: Listed | null): asserts listing is Listed {
  if (listing?.seller_id === actor.user_id) throw badRequest('You cannot watch your own listing');
  // The same rule as the list: only listings the public can see (hidden ones would be invisible entries).
  if (!listing || !listingAbilities(actor, listing).watch) throw notFound('Listing not found');
}
