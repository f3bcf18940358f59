import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DEFAULT_INSPECTION_DAYS, isInspectionDays, type PayoutStatus } from '@market/domain';
import { SettingsClient } from '@market/server-kit';

/** Where an invoice's held money is (D22): captured into escrow when, its payout's status, and the inspection period. */
export interface EscrowFacts {
  captured_at: Date | null;
  payout_status: PayoutStatus | null;
  inspection_days: number;
}

/** What an invoice shows with nothing captured or released (and the default inspection period). */
export const NO_ESCROW: EscrowFacts = { captured_at: null, payout_status: null, inspection_days: DEFAULT_INSPECTION_DAYS };

/** Reads the escrow facts invoices show (their buyer's "held in escrow", their seller's payout) for a page of invoices. */
@Injectable()
export class EscrowFactsReader {
  constructor(
    private readonly dataSource: DataSource,
    @Optional() private readonly settings?: SettingsClient,
  ) {}

  async of(invoiceIds: string[]): Promise<Map<string, EscrowFacts>> {
    if (invoiceIds.length === 0) return new Map();
    const [rows, days] = await Promise.all([
      this.dataSource.query(
        `SELECT i.id, (SELECT max(p.captured_at) FROM payment_intents p WHERE p.invoice_id = i.id AND p.status = 'succeeded' AND p.refunded_at IS NULL) AS captured_at,
           o.status AS payout_status
         FROM unnest($1::uuid[]) AS i(id) LEFT JOIN payouts o ON o.invoice_id = i.id`,
        [[...new Set(invoiceIds)]],
      ) as Promise<{ id: string; captured_at: Date | null; payout_status: PayoutStatus | null }[]>,
      this.inspectionDays(),
    ]);
    return new Map(rows.map((row) => [row.id, { captured_at: row.captured_at, payout_status: row.payout_status, inspection_days: days }]));
  }

  private async inspectionDays(): Promise<number> {
    const settings = await this.settings?.get().catch(() => null);
    return isInspectionDays(settings?.inspection_days) ? settings.inspection_days : DEFAULT_INSPECTION_DAYS;
  }
}
