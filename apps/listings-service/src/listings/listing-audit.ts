import type { EntityManager } from 'typeorm';
import { auditDiff, auditSnapshot, isEmptyDiff } from '@market/domain';
import { adminActed, type Actor, type AdminActAction } from '@market/contracts';
import { appendEvent } from '@market/server-kit';
import type { ListingRecord } from './listings.repository';

/** What an admin may change through the edit form, and so what an edit's audit entry compares. */
const EDITABLE_FIELDS = [
  'title',
  'description',
  'category',
  'listing_type',
  'auction_type',
  'status',
  'website_url',
  'monthly_revenue',
  'annual_revenue',
  'monthly_traffic',
  'monthly_expenses',
  'profit_margin',
  'business_age_months',
  'monetization_methods',
  'starting_price',
  'reserve_price',
  'buy_now_price',
  'duration_days',
  'key_metrics',
  'growth_opportunities',
  'included_assets',
  'reason_for_selling',
  'screenshots',
] as const;

/** The fields each act compares; a deletion keeps what the listing was instead. */
const COMPARED: Partial<Record<AdminActAction, readonly string[]>> = {
  'listing.edited': EDITABLE_FIELDS,
  'listing.status_changed': ['status'],
  'listing.cancelled': ['status', 'cancel_reason'],
  'listing.featured': ['featured'],
  'listing.unfeatured': ['featured'],
};

/**
 * Records an admin's act on a listing in the change's transaction (ADR 0032): the changed fields before and after,
 * or for a deletion what the listing was. An act that changed nothing is not recorded.
 */
export async function recordListingAct(
  manager: EntityManager,
  actor: Actor,
  action: AdminActAction,
  before: ListingRecord,
  after: ListingRecord | null,
): Promise<void> {
  const fields = COMPARED[action] ?? [];
  const diff = after ? auditDiff(auditSnapshot(before, fields), auditSnapshot(after, fields)) : null;
  if (diff && isEmptyDiff(diff)) return;
  const act = {
    action,
    target_type: 'listing' as const,
    target_id: before.id,
    target_label: before.title,
    before: diff ? diff.before : auditSnapshot(before, ['status', 'featured']),
    after: diff ? diff.after : null,
  };
  await appendEvent(manager, 'admin.acted', adminActed(actor, act));
}
