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

  /**
   * Escrow and payouts (D22): money held in escrow by the ledger, holds whose capture into escrow is overdue (the
   * sweep should have captured them `leadHours` before their deadline), payouts not yet sent by status, open differences
   * with the provider, and seconds since the last reconciliation (null before the first).
   */
  async escrow(leadHours: number): Promise<{ escrowCents: number; captureOverdue: number; unsent: { status: string; count: number }[]; unreconciled: number; sinceReconciled: number | null }> {
    return boundedRead(this.dataSource, async (manager) => {
      const [row]: { escrow: string; overdue: number; unreconciled: number; since: number | null }[] = await manager.query(
        `SELECT (SELECT coalesce(-sum(amount_cents), 0)::text FROM ledger_entries WHERE account = 'escrow_held') AS escrow,
           (SELECT count(*)::int FROM payment_intents p JOIN invoices i ON i.id = p.invoice_id
              WHERE p.status = 'requires_capture' AND i.status IN ('payment_authorized', 'disputed')
                AND p.authorized_at + make_interval(days => $1) - make_interval(hours => $2) <= now()) AS overdue,
           (SELECT count(*)::int FROM ledger_differences WHERE resolved_at IS NULL) AS unreconciled,
           (SELECT extract(epoch FROM now() - max(finished_at))::float8 FROM ledger_reconciliations) AS since`,
        [HOLD_DAYS, leadHours],
      );
      const unsent: { status: string; count: number }[] = await manager.query(
        `SELECT s.status, count(p.id)::int AS count FROM unnest(ARRAY['waiting_for_account', 'pending']) AS s(status)
         LEFT JOIN payouts p ON p.status = s.status GROUP BY s.status`,
      );
      return { escrowCents: Number(row.escrow), captureOverdue: row.overdue, unsent, unreconciled: row.unreconciled, sinceReconciled: row.since };
    });
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
