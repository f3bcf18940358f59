import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HOLD_DAYS } from '@market/domain';
import { boundedRead } from '@market/server-kit';

/** Card holds awaiting capture: how many, how much, and how close the nearest capture deadline is. */
export interface HoldSummary {
  holds: number;
  heldCents: number;
  expiringWithin48h: number;
  /** Seconds until the nearest hold's capture deadline (negative once past); null without holds. */
  nextDeadlineSeconds: number | null;
}

/** Invoice and hold figures for the business metrics; read on scrape under a short statement timeout (ADR 0048). */
@Injectable()
export class BillingCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** How many invoices are in each status. */
  async invoicesByStatus(): Promise<{ status: string; count: number }[]> {
    return boundedRead(this.dataSource, (manager) => manager.query('SELECT status, count(*)::int AS count FROM invoices GROUP BY status'));
  }

  /** The card holds (authorised, not captured) and their capture deadlines: authorisation + HOLD_DAYS (D11). */
  async holds(): Promise<HoldSummary> {
    const [row]: { holds: number; held: string | null; expiring: number; next: number | null }[] = await boundedRead(this.dataSource, (manager) =>
      manager.query(
        `SELECT count(*)::int AS holds, sum(amount_cents)::text AS held,
                count(*) FILTER (WHERE authorized_at + make_interval(days => $1) <= now() + interval '48 hours')::int AS expiring,
                extract(epoch FROM min(authorized_at) + make_interval(days => $1) - now())::float8 AS next
         FROM payment_intents WHERE status = 'requires_capture'`,
        [HOLD_DAYS],
      ),
    );
    return { holds: row?.holds ?? 0, heldCents: Number(row?.held ?? 0), expiringWithin48h: row?.expiring ?? 0, nextDeadlineSeconds: row?.next ?? null };
  }
}
