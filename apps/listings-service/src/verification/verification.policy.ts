import type { Actor } from '@market/contracts';
import { forbidden, notFound } from '@market/server-kit';
import { listingAbilities } from '../listings/listing.policy';
import type { ListingRecord } from '../listings/listings.repository';

const NOT_FOUND = 'Listing not found';

/**
 * Who may see a listing's connections (ADR 0084): its seller and real admins (the admin review); anyone else learns
 * nothing (404), as if the listing did not exist.
 */
export function authorizeConnectionsRead(actor: Actor, listing: ListingRecord | null): ListingRecord {
  if (!listing || !listingAbilities(actor, listing).update) throw notFound(NOT_FOUND);
  return listing;
}

/**
 * Who may connect or disconnect a listing's sources: its seller, as themselves. An admin may read but not connect (a
 * key vouches for the seller's own account), and an admin acting as the seller may not either (D14): 403. Anyone else
 * gets the 404 of a listing they cannot see, or a 403 for one they can.
 */
export function authorizeConnect(actor: Actor, listing: ListingRecord | null): ListingRecord {
  const abilities = listing ? listingAbilities(actor, listing) : null;
  if (!listing || !abilities?.read) throw notFound(NOT_FOUND);
  if (!abilities.proveOwnership) throw forbidden("Only the listing's seller can connect its revenue and traffic sources");
  if (actor.impersonator_id) throw forbidden('An admin acting as a member cannot connect their accounts for them');
  return listing;
}
