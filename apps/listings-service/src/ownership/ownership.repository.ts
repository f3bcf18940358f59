import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A seller's proof token for a listing and the pacing of its checks (ADR 0040). */
export interface OwnershipProofRecord {
  listing_id: string;
  seller_id: string;
  token: string;
  last_checked_at: Date | null;
  window_started_at: Date | null;
  checks_in_window: number;
}

const COLUMNS = 'listing_id, seller_id, token, last_checked_at, window_started_at, checks_in_window';

/** The only place that reads and writes listings.ownership_proofs. */
@Injectable()
export class OwnershipRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The listing's proof for its seller, made with `token` when there is none. A token made for another seller (the
   * listing changed hands) is replaced: a token is bound to its listing and seller.
   */
  async tokenFor(listingId: string, sellerId: string, token: string, manager?: EntityManager): Promise<OwnershipProofRecord> {
    const db = manager ?? this.dataSource.manager;
    const [written] = (await db.query(
      `INSERT INTO ownership_proofs (listing_id, seller_id, token) VALUES ($1, $2, $3)
       ON CONFLICT (listing_id) DO UPDATE SET seller_id = EXCLUDED.seller_id, token = EXCLUDED.token
         WHERE ownership_proofs.seller_id <> EXCLUDED.seller_id
       RETURNING ${COLUMNS}`,
      [listingId, sellerId, token],
    )) as OwnershipProofRecord[];
    if (written) return written;
    const [kept] = (await db.query(`SELECT ${COLUMNS} FROM ownership_proofs WHERE listing_id = $1`, [listingId])) as OwnershipProofRecord[];
    return kept;
  }

  /** Locks the listing's proof row for the pacing decision (inside the caller's transaction). */
  async lock(listingId: string, manager: EntityManager): Promise<OwnershipProofRecord | null> {
    const [row] = (await manager.query(`SELECT ${COLUMNS} FROM ownership_proofs WHERE listing_id = $1 FOR UPDATE`, [listingId])) as OwnershipProofRecord[];
    return row ?? null;
  }

  /** Counts a check at `now`: a new hour's window starts when the last one is over. */
  async countCheck(listingId: string, now: Date, manager: EntityManager): Promise<OwnershipProofRecord> {
    const [rows] = (await manager.query(
      `UPDATE ownership_proofs SET last_checked_at = $2,
         window_started_at = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 hour' THEN $2 ELSE window_started_at END,
         checks_in_window = CASE WHEN window_started_at IS NULL OR window_started_at <= $2::timestamptz - interval '1 hour' THEN 1 ELSE checks_in_window + 1 END
       WHERE listing_id = $1 RETURNING ${COLUMNS}`,
      [listingId, now],
    )) as [OwnershipProofRecord[], number];
    return rows[0];
  }
}
