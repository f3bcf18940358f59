import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LISTING_COLUMNS, type ListingRecord } from './listings.repository';

export type MemberStatus = 'active' | 'suspended' | 'deleted';

/**
 * What moderation does to listings (ADR 0038), beside ListingsRepository: the members' moderation states, pausing a
 * suspended seller's live listings under a flag, and restoring exactly those. Every method runs in the event's transaction.
 */
@Injectable()
export class SellerModerationRepository {
  /**
   * Records a member's state as auth-service announced it: an older announcement never overwrites a newer one and a
   * deletion is final. Returns the state that now stands.
   */
  async recordMember(userId: string, status: MemberStatus, at: Date, manager: EntityManager): Promise<MemberStatus> {
    await manager.query(
      `INSERT INTO member_states (user_id, status, changed_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status, changed_at = EXCLUDED.changed_at
       WHERE member_states.status <> 'deleted' AND (EXCLUDED.status = 'deleted' OR member_states.changed_at < EXCLUDED.changed_at)`,
      [userId, status, at],
    );
    // A statement of its own: it sees the row whichever announcement (this one or one racing it) wrote it.
    const [row]: { status: MemberStatus }[] = await manager.query('SELECT status FROM member_states WHERE user_id = $1', [userId]);
    return row.status;
  }

  /** A member's moderation state as last announced here; active when none was (ADR 0038). */
  async statusOf(userId: string, manager: EntityManager): Promise<MemberStatus> {
    const [row]: { status: MemberStatus }[] = await manager.query('SELECT status FROM member_states WHERE user_id = $1', [userId]);
    return row?.status ?? 'active';
  }

  /** Pauses a seller's live listings, flagged as moderation's; returns them as they now are (none twice). */
  async pauseSeller(sellerId: string, manager: EntityManager): Promise<ListingRecord[]> {
    const [rows]: [ListingRecord[], number] = await manager.query(
      `UPDATE listings SET status = 'paused', moderation_paused = true, updated_at = now() WHERE seller_id = $1 AND status = 'active'
       RETURNING ${LISTING_COLUMNS}`,
      [sellerId],
    );
    return rows;
  }

  /**
   * Makes live again exactly the listings moderation paused and that are still paused and not past their end (one that
   * ended meanwhile was ended by bidding); the seller's own paused listings stay paused. Returns them.
   */
  async restoreSeller(sellerId: string, manager: EntityManager): Promise<ListingRecord[]> {
    const [rows]: [ListingRecord[], number] = await manager.query(
      `UPDATE listings SET status = CASE WHEN expires_at IS NULL OR expires_at > now() THEN 'active' ELSE 'paused' END,
         moderation_paused = false, updated_at = now()
       WHERE seller_id = $1 AND moderation_paused AND status = 'paused'
       RETURNING ${LISTING_COLUMNS}`,
      [sellerId],
    );
    return rows.filter((row) => row.status === 'active');
  }
}
