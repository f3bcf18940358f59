import { randomUUID } from 'node:crypto';
import type { Actor } from '@market/contracts';
import { refusalOf } from '@market/server-kit/testing';
import { authorizeListingUpdate, authorizeWatch, listingAbilities, type ListingAbilities } from './listing.policy';

const sellerId = randomUUID();
const seller: Actor = { user_id: sellerId, role: 'regular' };
const member: Actor = { user_id: randomUUID(), role: 'regular' };
const admin: Actor = { user_id: randomUUID(), role: 'admin' };
// An admin acting as the seller has the seller's abilities, never an admin's (D14).
const actingAsSeller: Actor = { user_id: sellerId, role: 'regular', impersonator_id: admin.user_id };
const impersonatingAdmin: Actor = { user_id: randomUUID(), role: 'admin', impersonator_id: randomUUID() };
const sellingAdmin: Actor = { user_id: sellerId, role: 'admin' };

const no: ListingAbilities = { read: false, update: false, moderate: false, audited: false, proveOwnership: false, watch: false };
const reader = { ...no, read: true };
const owner = { ...no, read: true, update: true, proveOwnership: true };
const moderator = { ...no, read: true, update: true, moderate: true, audited: true };
// What a member who is not the seller may do with a listing the public sees.
const watcher = { ...reader, watch: true };

describe('listing policy (ADR 0069)', () => {
  it.each([
    ['a visitor', null, 'active', reader],
    ['a visitor', null, 'draft', no],
    ['a visitor', null, 'pending', no],
    ['a member', member, 'sold', watcher],
    ['a member', member, 'active', watcher],
    ['a member', member, 'pending', no],
    ['the seller', seller, 'draft', owner],
    ['the seller', seller, 'active', owner],
    ['an admin acting as the seller', actingAsSeller, 'pending', owner],
    ['an admin', admin, 'draft', moderator],
    ['an admin', admin, 'active', { ...moderator, watch: true }],
    ['an admin selling their own site (not an audited act on another)', sellingAdmin, 'active', { ...moderator, audited: false, proveOwnership: true }],
    ['an impersonated admin', impersonatingAdmin, 'active', watcher],
    ['an impersonated admin', impersonatingAdmin, 'draft', no],
  ] as const)('%s on a %s listing', (_who, actor, status, expected) => {
    expect(listingAbilities(actor, { seller_id: sellerId, status })).toEqual(expected);
  });

  it('refuses a change as not found to one who may not see the listing, and 403 to one who may only see it', () => {
    const refusal = (actor: Actor, status: 'draft' | 'active' | null) =>
      refusalOf(() => authorizeListingUpdate(actor, status ? { seller_id: sellerId, status } : null, 'Listing not found'));
    expect(refusal(member, 'draft')).toEqual({ status: 404, detail: 'Listing not found' });
    expect(refusal(member, null)).toEqual({ status: 404, detail: 'Listing not found' });
    expect(refusal(member, 'active')).toEqual({ status: 403, detail: 'You can only change your own listings' });
    expect(refusal(seller, 'draft')).toBeNull();
    expect(refusal(admin, 'draft')).toBeNull();
  });

  it("refuses a watch of one's own listing as such, and of a hidden one as if it did not exist", () => {
    const attempt = (actor: Actor, status: 'draft' | 'active' | null) => refusalOf(() => authorizeWatch(actor, status ? { seller_id: sellerId, status } : null));
    expect(attempt(seller, 'active')).toEqual({ status: 400, detail: 'You cannot watch your own listing' });
    expect(attempt(seller, 'draft')).toEqual({ status: 400, detail: 'You cannot watch your own listing' });
    expect(attempt(member, 'draft')).toEqual({ status: 404, detail: 'Listing not found' });
    expect(attempt(member, null)).toEqual({ status: 404, detail: 'Listing not found' });
    expect(attempt(member, 'active')).toBeNull();
  });
});
