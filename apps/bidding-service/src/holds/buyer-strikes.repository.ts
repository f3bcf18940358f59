import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD, type BuyerStrike } from '@market/domain';
import { readsPerTurn } from '@market/server-kit';
import { countingStrike } from './buying-hold.sql';

/**
 * Reads and writes bidding.buyer_strikes (ADR 0043): strikes come with an unwound sale (UnwindSale), an admin lifts them
 * (liftBuyingHold); a batch of bids reads holds with its standing maximums (bid-batch.repository).
 */
@Injectable()
export class BuyerStrikesRepository {
  // The holds asked for in one turn of the event loop, read in one statement started after all of them (ADR 0062).
  private readonly holdReads = readsPerTurn((userIds: readonly string[]) => this.heldAmong(userIds));

  constructor(private readonly dataSource: DataSource) {}

  /** True while the member's buying is on hold now; the reads of one turn share a statement (ADR 0062). */
  onHoldNow(userId: string): Promise<boolean> {
    return this.holdReads(userId);
  }

  private async heldAmong(userIds: readonly string[]): Promise<boolean[]> {
    const rows: { buyer_id: string }[] = await this.dataSource.query(
      `SELECT buyer_id FROM buyer_strikes WHERE buyer_id = ANY($1::uuid[]) AND ${countingStrike('$2', '$3')} GROUP BY buyer_id HAVING count(*) >= $4`,
      [[...new Set(userIds)], new Date(), STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD],
    );
    const held = new Set(rows.map((row) => row.buyer_id));
    return userIds.map((id) => held.has(id));
  }

  /** Records a buyer's strike for an unpaid invoice, once per invoice (ADR 0043). */
  async recordStrike(strike: { invoice_id: string; buyer_id: string; listing_id: string; bid_id: string; struck_at: string }, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO buyer_strikes (invoice_id, buyer_id, listing_id, bid_id, struck_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (invoice_id) DO NOTHING`,
      [strike.invoice_id, strike.buyer_id, strike.listing_id, strike.bid_id, strike.struck_at],
    );
  }

  /** The member's strikes of the last 90 days (lifted or not), for buyingHoldOf. */
  recent(userId: string, now: Date): Promise<BuyerStrike[]> {
    return this.dataSource.query(
      `SELECT struck_at, lifted_at FROM buyer_strikes WHERE buyer_id = $1 AND struck_at > $2::timestamptz - make_interval(days => $3::int)`,
      [userId, now, STRIKE_WINDOW_DAYS],
    );
  }

  /** Members on hold now (the same rule as buyingOnHold, in SQL), most recently struck first. */
  holds(now: Date, limit: number): Promise<{ user_id: string; strikes: number; last_struck_at: Date }[]> {
    return this.dataSource.query(
      `SELECT buyer_id AS user_id, count(*)::int AS strikes, max(struck_at) AS last_struck_at FROM buyer_strikes
       WHERE ${countingStrike('$1', '$2')}
       GROUP BY buyer_id HAVING count(*) >= $3 ORDER BY max(struck_at) DESC LIMIT $4`,
      [now, STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD, limit],
    );
  }

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Marks every strike of the member not yet lifted as lifted by `adminId`; returns how many (ADR 0043). */
  async liftStrikes(userId: string, adminId: string, now: Date, manager: EntityManager): Promise<number> {
    const [, lifted]: [unknown[], number] = await manager.query(
      `UPDATE buyer_strikes SET lifted_at = $2, lifted_by = $3 WHERE buyer_id = $1 AND lifted_at IS NULL RETURNING invoice_id`,
      [userId, now, adminId],
    );
    return lifted;
  }
}
