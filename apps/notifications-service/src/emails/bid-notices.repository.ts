import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventPayloads } from '@market/contracts';
import type { BidDigest } from './bid-email-templates';

/** The consumer name under which this service records the events it applied (processed_events). */
const CONSUMER = 'notifications-service';

/** A digest as PostgreSQL returns it: the price is a numeric column, read as a string. */
type DigestRow = Omit<BidDigest, 'current_bid'> & { current_bid: string };

/** A digest whose window is not visible yet: its event's transaction has not committed (or will be retried). */
export class DigestNotCommittedError extends Error {}

/**
 * The windows of the bid emails (ADR 0056), in PostgreSQL so they hold across replicas and restarts: the outbid
 * throttle per (listing, person) and each listing's open digest for its seller. The event-side calls run in the
 * consumer's transaction (`manager`), so an event applied twice or rolled back leaves no trace of its own.
 */
@Injectable()
export class BidNoticesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims the outbid email to `userId` about `listingId`: true when none was sent in the last `intervalMs` (and
   * records this one as sent now). Racing claims queue on the row's lock and see the winner's time, so one wins.
   */
  async claimOutbid(manager: EntityManager, listingId: string, userId: string, intervalMs: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO outbid_notices AS o (listing_id, user_id, last_sent_at) VALUES ($1, $2, now())
       ON CONFLICT (listing_id, user_id) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at
       WHERE o.last_sent_at <= EXCLUDED.last_sent_at - $3::float8 * interval '1 millisecond'
       RETURNING 1`,
      [listingId, userId, intervalMs],
    );
    return rows.length > 0;
  }

  /**
   * Counts a bid into its listing's open digest, or opens one (id `eventId`, due `intervalMs` from now) when there is
   * none. `opened` says the caller must schedule its email; `overdue`, that the digest is still open a minute past its
   * time, so its job may be lost with Redis and the caller queues it again. The digest keeps the newest public state by
   * price version (ADR 0038), whatever order replicas apply the events in.
   */
  async addToDigest(manager: EntityManager, eventId: string, e: EventPayloads['bid.placed'], intervalMs: number): Promise<{ id: string; opened: boolean; overdue: boolean }> {
    const at = new Date(e.created_at).toISOString();
    const rows: { id: string; bids: number; overdue: boolean }[] = await manager.query(
      `INSERT INTO bid_digests AS d (id, listing_id, seller_id, listing_title, due_at, bids, automatic_bids, first_bid_at, last_bid_at,
                                     price_version, current_bid, bid_count, reserve_met, expires_at, extended)
       VALUES ($1, $2, $3, $4, now() + $5::float8 * interval '1 millisecond', 1, $6, $7, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (listing_id) WHERE closed_at IS NULL DO UPDATE SET
         bids = d.bids + 1,
         automatic_bids = d.automatic_bids + EXCLUDED.automatic_bids,
         first_bid_at = least(d.first_bid_at, EXCLUDED.first_bid_at),
         last_bid_at = greatest(d.last_bid_at, EXCLUDED.last_bid_at),
         extended = d.extended OR EXCLUDED.extended,
         listing_title = CASE WHEN EXCLUDED.price_version >= d.price_version THEN EXCLUDED.listing_title ELSE d.listing_title END,
         current_bid = CASE WHEN EXCLUDED.price_version >= d.price_version THEN EXCLUDED.current_bid ELSE d.current_bid END,
         bid_count = CASE WHEN EXCLUDED.price_version >= d.price_version THEN EXCLUDED.bid_count ELSE d.bid_count END,
         reserve_met = CASE WHEN EXCLUDED.price_version >= d.price_version THEN EXCLUDED.reserve_met ELSE d.reserve_met END,
         expires_at = CASE WHEN EXCLUDED.price_version >= d.price_version THEN EXCLUDED.expires_at ELSE d.expires_at END,
         price_version = greatest(d.price_version, EXCLUDED.price_version)
       RETURNING id, bids, due_at < now() - interval '1 minute' AS overdue`,
      [
        eventId,
        e.listing_id,
        e.seller_id,
        e.listing_title,
        intervalMs,
        e.automatic === true ? 1 : 0,
        at,
        // Events written before price versions counted their bid count as one (ADR 0038).
        e.price_version ?? e.bid_count,
        e.current_bid,
        e.bid_count,
        e.reserve_met,
        e.expires_at ? new Date(e.expires_at).toISOString() : null,
        e.extended,
      ],
    );
    // Only the bid that opens a digest finds it with one bid: every bid that joins adds one.
    return { id: rows[0].id, opened: rows[0].id === eventId && rows[0].bids === 1, overdue: rows[0].overdue };
  }

  /** Removes a digest nobody can receive (its seller's account is gone); the next bid opens another. */
  async dropDigest(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM bid_digests WHERE id = $1', [id]);
  }

  /**
   * Closes a digest's window (once; a retried job finds it closed) and answers what it gathered, so a later bid opens
   * the next one. Null when there is nothing to send: its event was applied without it (rolled back and then joined
   * another digest) or it is gone. Throws DigestNotCommittedError while its event has not been applied yet.
   */
  async closeDigest(id: string): Promise<BidDigest | null> {
    // An UPDATE answers [rows, count] through TypeORM.
    const [rows]: [DigestRow[], number] = await this.dataSource.query(
      `UPDATE bid_digests SET closed_at = coalesce(closed_at, now()) WHERE id = $1
       RETURNING id, listing_id, listing_title, bids, automatic_bids, first_bid_at, last_bid_at, current_bid, bid_count, reserve_met, expires_at, extended`,
      [id],
    );
    const row = rows[0];
    if (row) return { ...row, current_bid: Number(row.current_bid) };
    const applied: unknown[] = await this.dataSource.query('SELECT 1 FROM processed_events WHERE event_id = $1 AND consumer = $2', [id, CONSUMER]);
    if (applied.length === 0) throw new DigestNotCommittedError(`Bid digest ${id} is not committed yet`);
    return null;
  }
}
