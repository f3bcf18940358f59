import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { adminActed, type Actor } from '@market/contracts';
import { STRIKE_WINDOW_DAYS, STRIKES_FOR_HOLD, type BuyerStrike } from '@market/domain';
import { appendEvent, readsPerTurn } from '@market/server-kit';
import { countingStrike } from './buying-hold.sql';

/**
 * Reads and writes bidding.buyer_strikes (ADR 0043); strikes are written by SaleUnwindingRepository, and a batch of bids
 * reads holds with its standing maximums (bid-batch.repository).
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

  /**
   * An admin lifts the hold: every strike not yet lifted is marked lifted, and the act is audited (admin.acted, ADR
   * 0032) in the same transaction when anything was lifted. Returns how many strikes were lifted.
   */
  lift(admin: Actor, userId: string, now: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [rows, lifted]: [unknown[], number] = await manager.query(
        `UPDATE buyer_strikes SET lifted_at = $2, lifted_by = $3 WHERE buyer_id = $1 AND lifted_at IS NULL RETURNING invoice_id`,
        [userId, now, admin.user_id],
      );
      void rows;
      if (lifted > 0) {
        await appendEvent(
          manager,
          'admin.acted',
          adminActed(admin, {
            action: 'user.buying_hold_lifted',
            target_type: 'user',
            target_id: userId,
            target_label: null,
            before: { buying_on_hold: true, strikes: lifted },
            after: { buying_on_hold: false, strikes: 0 },
          }),
        );
      }
      return lifted;
    });
  }
}
