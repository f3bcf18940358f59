import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PayoutAccountStatus } from '@market/domain';

/** A seller's payout account as stored (billing.payout_accounts): the provider's account and its last known status. */
export interface PayoutAccountRecord {
  user_id: string;
  provider: 'sandbox' | 'stripe';
  provider_account_id: string;
  status: PayoutAccountStatus;
  requirements_due: string[];
  updated_at: Date;
}

const COLUMNS = 'user_id::text AS user_id, provider, provider_account_id, status, requirements_due, updated_at';

/** The only place that reads and writes billing.payout_accounts. */
@Injectable()
export class PayoutAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<PayoutAccountRecord | null> {
    const [row]: PayoutAccountRecord[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM payout_accounts WHERE user_id = $1`, [userId]);
    return row ?? null;
  }

  async findByProviderAccount(accountId: string): Promise<PayoutAccountRecord | null> {
    const [row]: PayoutAccountRecord[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM payout_accounts WHERE provider_account_id = $1`, [accountId]);
    return row ?? null;
  }

  /** Each seller's account status (absent: not started), for a batch of payouts. */
  async statuses(userIds: string[]): Promise<Map<string, PayoutAccountRecord>> {
    if (userIds.length === 0) return new Map();
    const rows: PayoutAccountRecord[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM payout_accounts WHERE user_id = ANY($1::uuid[])`, [[...new Set(userIds)]]);
    return new Map(rows.map((row) => [row.user_id, row]));
  }

  /** Records the seller's provider account the first time; later calls keep the first one (one account per seller). */
  async saveNew(record: Omit<PayoutAccountRecord, 'updated_at'>): Promise<PayoutAccountRecord> {
    await this.dataSource.query(
      `INSERT INTO payout_accounts (user_id, provider, provider_account_id, status, requirements_due) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO NOTHING`,
      [record.user_id, record.provider, record.provider_account_id, record.status, record.requirements_due],
    );
    return (await this.find(record.user_id)) as PayoutAccountRecord;
  }

  /** Sets what the provider says now; returns the status it had before (null when the account is not ours). */
  async updateStatus(accountId: string, status: PayoutAccountStatus, requirementsDue: string[]): Promise<{ before: PayoutAccountStatus; after: PayoutAccountRecord } | null> {
    // An UPDATE answers [rows, count].
    const [[row]]: [(PayoutAccountRecord & { before: PayoutAccountStatus })[], number] = await this.dataSource.query(
      `UPDATE payout_accounts a SET status = $2, requirements_due = $3, updated_at = now()
       FROM (SELECT user_id, status AS before FROM payout_accounts WHERE provider_account_id = $1 FOR UPDATE) old
       WHERE a.user_id = old.user_id RETURNING a.user_id::text AS user_id, a.provider, a.provider_account_id, a.status, a.requirements_due, a.updated_at, old.before`,
      [accountId, status, requirementsDue],
    );
    if (!row) return null;
    const { before, ...after } = row;
    return { before, after };
  }
}
