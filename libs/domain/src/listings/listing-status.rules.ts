/** Every state a listing can be in (SPEC §4, D16). */
export const LISTING_STATUSES = ['pending', 'active', 'paused', 'draft', 'sold', 'expired', 'cancelled'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

const LABELS: Record<ListingStatus, string> = {
  pending: 'Pending Review',
  active: 'Active',
  paused: 'Paused',
  draft: 'Draft',
  sold: 'Sold',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** The label people see for a status. */
export function listingStatusLabel(status: ListingStatus): string {
  return LABELS[status];
}

/** Statuses the owner may ask for in the edit form (SPEC §5). */
export const OWNER_STATUSES = ['active', 'paused', 'draft'] as const satisfies readonly ListingStatus[];
/** Statuses an admin may set from the Listings tab (SPEC §2, D16). */
export const ADMIN_STATUSES = ['active', 'pending', 'sold', 'expired'] as const satisfies readonly ListingStatus[];

export interface OwnerStatusContext {
  /** An admin has approved this listing at some point. */
  approved: boolean;
  /** The auto_approve setting. */
  autoApprove: boolean;
}

/**
 * What an owner's status request turns into (D16): active <-> paused, and back to draft; a listing that was never
 * approved goes to review instead of going live. Returns the new status, or why the change is refused.
 */
export function ownerStatusChange(
  current: ListingStatus,
  requested: ListingStatus,
  context: OwnerStatusContext,
): { status: ListingStatus } | { refused: string } {
  if (!(OWNER_STATUSES as readonly ListingStatus[]).includes(requested)) {
    return { refused: `You can set a listing to active, paused or draft, not ${requested}` };
  }
  if (current === 'sold' || current === 'expired' || current === 'cancelled') return { refused: `A ${current} listing cannot be changed` };
  if (requested === current) return { status: current };
  if (requested === 'draft') return { status: 'draft' };
  if (requested === 'paused') {
    return current === 'active' ? { status: 'paused' } : { refused: 'Only an active listing can be paused' };
  }
  // requested === 'active'
  if (current === 'paused') return { status: 'active' };
  if (current === 'pending') return { refused: 'This listing is waiting for review' };
  return { status: context.approved || context.autoApprove ? 'active' : 'pending' };
}

/** True when the public (browse, listing page, bids) may see the listing; a cancelled one stays readable for its bidders. */
export function isPubliclyVisible(status: ListingStatus): boolean {
  return status === 'active' || status === 'sold' || status === 'expired' || status === 'cancelled';
}

/** True when the listing takes bids, offers and purchases right now. */
export function acceptsBids(status: ListingStatus, expiresAt: Date | null, now: Date = new Date()): boolean {
  return status === 'active' && (expiresAt === null || expiresAt.getTime() > now.getTime());
}
