import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Actor, OwnershipProofDto } from '@market/contracts';
import { nextProofCheckAt, refusedProofCheck, waitInWords, OWNERSHIP_FILE_PATH, ownershipRecord, proofDomainOf } from '@market/domain';
import { badRequest, DomainProofChecker, rateLimited, forbidden, notFound, requireActor, unavailable } from '@market/server-kit';
import { ListingsRepository, type ListingRecord } from '../listings/listings.repository';
import { listingAbilities } from '../listings/listing.policy';
import { OwnershipRepository, type OwnershipProofRecord } from './ownership.repository';

const NOT_FOUND = 'Listing not found';

/**
 * Sellers prove control of a listing's domain (ADR 0040): each listing has a token of its seller's, published as a DNS
 * TXT record or a well-known file; a check looks now, paced per listing, and a match marks the listing's current
 * address verified. Only the seller sees the token and may check.
 */
@Injectable()
export class OwnershipService {
  constructor(
    private readonly listings: ListingsRepository,
    private readonly proofs: OwnershipRepository,
    private readonly checker: DomainProofChecker,
  ) {}

  /** The seller's token for the listing (made on first ask), how to publish it, and whether it is verified. */
  async proof(actor: Actor | null, listingId: string): Promise<OwnershipProofDto> {
    const listing = await this.sellersListing(actor, listingId);
    const proof = await this.proofs.tokenFor(listing.id, listing.seller_id, newToken());
    return present(listing, proof);
  }

  /**
   * Checks the listing's domain for the seller's token now. A match verifies the listing's current address; a miss is a
   * 400 saying what to fix, a domain that did not answer a 503, a check too soon after the last a 429. A later miss
   * never takes a verification back: it proved control when it was made, and the address change is what drops it.
   */
  async check(actor: Actor | null, listingId: string): Promise<OwnershipProofDto> {
    const listing = await this.sellersListing(actor, listingId);
    const domain = proofDomainOf(listing.website_url);
    if (!domain) {
      throw badRequest(`This listing's website address (${listing.website_url}) has no domain name to verify. Edit the listing to give its domain, then check again.`);
    }
    await this.proofs.tokenFor(listing.id, listing.seller_id, newToken());
    const proof = await this.listings.transaction(async (manager) => {
      const current = (await this.proofs.lock(listing.id, manager)) as OwnershipProofRecord;
      const now = new Date();
      const refused = refusedProofCheck(current, now);
      if (refused) {
        throw rateLimited(`This listing's domain was checked a moment ago. Please try again in ${waitInWords(refused.reset_seconds)}.`, { ...refused, unit: 'requests', remaining: 0 });
      }
      return this.proofs.countCheck(listing.id, now, manager);
    });
    const found = await this.checker.check(domain, proof.token);
    if (!found.verified) throw found.reason === 'timeout' ? unavailable(found.detail) : badRequest(found.detail);
    const verified = await this.listings.recordOwnership(listing.id, listing.website_url, found.method);
    if (!verified) throw badRequest('The listing\'s website address changed during the check. Publish the token on the new domain, then check again.');
    return present(verified, proof);
  }

  /** The listing, when the actor is its seller: anyone else learns nothing (404) or is refused (403). */
  private async sellersListing(actor: Actor | null, listingId: string): Promise<ListingRecord> {
    const seller = requireActor(actor);
    const listing = await this.listings.findById(listingId);
    const abilities = listing ? listingAbilities(seller, listing) : null;
    if (!listing || !abilities?.read) throw notFound(NOT_FOUND);
    if (!abilities.proveOwnership) throw forbidden("Only the listing's seller can verify ownership of its domain");
    return listing;
  }
}

/** 144 random bits, URL-safe: unguessable, and short enough to paste into a DNS panel. */
function newToken(): string {
  return randomBytes(18).toString('base64url');
}

function present(listing: ListingRecord, proof: OwnershipProofRecord): OwnershipProofDto {
  const domain = proofDomainOf(listing.website_url);
  const next = nextProofCheckAt(proof, new Date());
  return {
    listing_id: listing.id,
    domain,
    token: proof.token,
    txt_record: ownershipRecord(proof.token),
    file_url: domain ? `https://${domain}${OWNERSHIP_FILE_PATH}` : null,
    verified: listing.ownership_verified,
    verified_at: listing.ownership_verified ? (listing.ownership_verified_at?.toISOString() ?? null) : null,
    method: listing.ownership_verified ? listing.ownership_method : null,
    next_check_at: next?.toISOString() ?? null,
  };
}
