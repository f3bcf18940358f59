import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  ProviderError,
  type AccountLinkInput,
  type ConnectProvider,
  type CreateAccountInput,
  type CreateTransferInput,
  type ProviderAccount,
  type ProviderBalanceEntry,
  type ProviderBalanceTransaction,
  type ProviderEvent,
  type ProviderTransfer,
} from './payment-provider';

const token = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** What a new connected account asks for before it can take payouts (Stripe's Express defaults, abridged). */
const NEW_ACCOUNT_DUE = ['external_account', 'individual.dob.day', 'individual.first_name', 'individual.last_name', 'tos_acceptance.date'];
/** How long an onboarding link lasts: Stripe's are minutes; the sandbox's page may stay open a little longer. */
const LINK_TTL_MS = 30 * 60_000;
const BALANCE_PAGE = 5_000;

const ACCOUNT_COLUMNS = `id, user_id::text AS user_id, details_submitted, payouts_enabled, currently_due, past_due, pending_verification, disabled_reason`;
const TRANSFER_COLUMNS = `t.id, t.amount_cents::float8 AS amount_cents, t.destination, t.transfer_group, t.created_at, t.reversed_at,
  b.id AS b_id, b.created_at AS b_created_at, r.id AS r_id, r.created_at AS r_created_at`;
const TRANSFER_FROM = `sandbox_transfers t
  LEFT JOIN sandbox_balance_transactions b ON b.type = 'transfer' AND b.source_id = t.id
  LEFT JOIN sandbox_balance_transactions r ON r.type = 'transfer_refund' AND r.source_id = t.id`;

/** What the sandbox's onboarding page lets a seller do: its one button, or a provider's other answers (tests, demos). */
export type SandboxOnboardingOutcome = 'complete' | 'pending_verification' | 'restricted';

interface TransferRow {
  id: string;
  amount_cents: number;
  destination: string;
  transfer_group: string | null;
  created_at: Date;
  reversed_at: Date | null;
  b_id: string | null;
  b_created_at: Date | null;
  r_id: string | null;
  r_created_at: Date | null;
}

function transferOf(row: TransferRow): ProviderTransfer {
  const entry = (id: string | null, at: Date | null, sign: number): ProviderBalanceEntry | null =>
    id && at ? { id, amount_cents: sign * row.amount_cents, fee_cents: 0, net_cents: sign * row.amount_cents, created_at: at } : null;
  return {
    id: row.id,
    amount_cents: row.amount_cents,
    destination: row.destination,
    transfer_group: row.transfer_group,
    created_at: row.created_at,
    reversed: row.reversed_at !== null,
    balance: entry(row.b_id, row.b_created_at, -1),
    reversal_balance: entry(row.r_id, row.r_created_at, 1),
  };
}

/**
 * The sandbox's Connect side (D22): sellers' connected accounts with a TEST MODE onboarding page, transfers from the
 * platform's balance, and the balance transactions every capture, refund and transfer leaves, kept in the billing
 * schema as Stripe keeps them on its side. Each change writes its event in the same transaction; `deliver` hands them
 * to the one listener afterwards (redelivered by the hold sweep if that failed).
 */
export class SandboxConnect implements ConnectProvider {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publicUrl: string,
    private readonly deliver: (events: ProviderEvent[]) => Promise<void>,
  ) {}

  async createAccount(input: CreateAccountInput): Promise<ProviderAccount> {
    await this.dataSource.query(
      `INSERT INTO sandbox_accounts (id, idempotency_key, user_id, currently_due, disabled_reason)
       VALUES ($1, $2, $3, $4, 'requirements.past_due') ON CONFLICT (idempotency_key) DO NOTHING`,
      [token('acct_sbx'), input.idempotency_key, input.user_id, NEW_ACCOUNT_DUE],
    );
    const [row]: ProviderAccount[] = await this.dataSource.query(`SELECT ${ACCOUNT_COLUMNS} FROM sandbox_accounts WHERE idempotency_key = $1`, [input.idempotency_key]);
    return row;
  }

  async retrieveAccount(accountId: string): Promise<ProviderAccount | null> {
    const [row]: ProviderAccount[] = await this.dataSource.query(`SELECT ${ACCOUNT_COLUMNS} FROM sandbox_accounts WHERE id = $1`, [accountId]);
    return row ?? null;
  }

  async createAccountLink(input: AccountLinkInput): Promise<{ url: string; expires_at: Date }> {
    const id = token('acctlink_sbx');
    const expires = new Date(Date.now() + LINK_TTL_MS);
    await this.dataSource.query('INSERT INTO sandbox_account_links (id, account_id, refresh_url, return_url, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      id,
      input.account_id,
      input.refresh_url,
      input.return_url,
      expires,
    ]);
    return { url: new URL(`/sandbox-onboarding/${id}`, this.publicUrl).toString(), expires_at: expires };
  }

  /** An onboarding link with its account, or null when there is none. */
  async link(linkId: string): Promise<{ id: string; account_id: string; user_id: string; return_url: string; refresh_url: string; expired: boolean } | null> {
    const [row] = await this.dataSource.query(
      `SELECT l.id, l.account_id, a.user_id::text AS user_id, l.return_url, l.refresh_url, (l.used_at IS NOT NULL OR l.expires_at <= now()) AS expired
       FROM sandbox_account_links l JOIN sandbox_accounts a ON a.id = l.account_id WHERE l.id = $1`,
      [linkId],
    );
    return row ?? null;
  }

  /**
   * What the seller did on the onboarding page: the account takes payouts (the page's button), or the provider keeps
   * verifying, or restricts it. The link is used up; account.updated goes to the listener.
   */
  async completeOnboarding(linkId: string, outcome: SandboxOnboardingOutcome): Promise<ProviderAccount> {
    const { account, events } = await this.dataSource.transaction(async (manager) => {
      const [link]: { account_id: string; expired: boolean }[] = await manager.query(
        'SELECT account_id, (used_at IS NOT NULL OR expires_at <= now()) AS expired FROM sandbox_account_links WHERE id = $1 FOR UPDATE',
        [linkId],
      );
      if (!link || link.expired) throw new ProviderError('not_found', 'This onboarding link has expired; ask for a new one.');
      await manager.query('UPDATE sandbox_account_links SET used_at = now() WHERE id = $1', [linkId]);
      const set = {
        complete: [true, true, [], [], [], null],
        pending_verification: [true, false, [], [], ['individual.verification.document'], 'requirements.pending_verification'],
        restricted: [true, false, ['individual.verification.document'], ['individual.verification.document'], [], 'requirements.past_due'],
      }[outcome];
      const [[updated]]: [ProviderAccount[]] = await manager.query(
        `UPDATE sandbox_accounts SET details_submitted = $2, payouts_enabled = $3, currently_due = $4, past_due = $5, pending_verification = $6,
           disabled_reason = $7 WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
        [link.account_id, ...set],
      );
      const event = await this.recordEvent(manager, 'account.updated', link.account_id);
      return { account: updated, events: [event] };
    });
    await this.deliver(events);
    return account;
  }

  /** Pays a connected account; the same key answers the same transfer, and an account that cannot take it is refused. */
  async createTransfer(input: CreateTransferInput): Promise<ProviderTransfer> {
    const { id, events } = await this.dataSource.transaction(async (manager) => {
      const [existing]: { id: string }[] = await manager.query('SELECT id FROM sandbox_transfers WHERE idempotency_key = $1', [input.idempotency_key]);
      if (existing) return { id: existing.id, events: [] };
      const [account]: { payouts_enabled: boolean }[] = await manager.query('SELECT payouts_enabled FROM sandbox_accounts WHERE id = $1 FOR SHARE', [input.destination]);
      if (!account) throw new ProviderError('not_found', `No such destination account: ${input.destination}`);
      if (!account.payouts_enabled) throw new ProviderError('account_unable', 'The destination account cannot receive transfers yet.');
      const transferId = token('tr_sbx');
      const at = new Date();
      const inserted: { id: string }[] = await manager.query(
        `INSERT INTO sandbox_transfers (id, idempotency_key, amount_cents, destination, transfer_group, source_transaction, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
        [transferId, input.idempotency_key, input.amount_cents, input.destination, input.transfer_group, input.source_transaction, at],
      );
      // A racing call with the same key committed first: its transfer is the one.
      if (inserted.length === 0) {
        const [winner]: { id: string }[] = await manager.query('SELECT id FROM sandbox_transfers WHERE idempotency_key = $1', [input.idempotency_key]);
        return { id: winner.id, events: [] };
      }
      await this.recordBalance(manager, 'transfer', transferId, -input.amount_cents, 0, at);
      return { id: transferId, events: [await this.recordEvent(manager, 'transfer.created', transferId)] };
    });
    await this.deliver(events);
    return (await this.retrieveTransfer(id)) as ProviderTransfer;
  }

  async findTransfer(transferGroup: string): Promise<ProviderTransfer | null> {
    const [row]: TransferRow[] = await this.dataSource.query(`SELECT ${TRANSFER_COLUMNS} FROM ${TRANSFER_FROM} WHERE t.transfer_group = $1 ORDER BY t.created_at LIMIT 1`, [
      transferGroup,
    ]);
    return row ? transferOf(row) : null;
  }

  async retrieveTransfer(transferId: string): Promise<ProviderTransfer | null> {
    const [row]: TransferRow[] = await this.dataSource.query(`SELECT ${TRANSFER_COLUMNS} FROM ${TRANSFER_FROM} WHERE t.id = $1`, [transferId]);
    return row ? transferOf(row) : null;
  }

  /** Reverses a transfer in full (what an admin may do in a provider's dashboard): the money is back in the platform's balance. */
  async reverseTransfer(transferId: string): Promise<ProviderTransfer> {
    const events = await this.dataSource.transaction(async (manager) => {
      const [row]: { amount_cents: number; reversed_at: Date | null }[] = await manager.query(
        'SELECT amount_cents::float8 AS amount_cents, reversed_at FROM sandbox_transfers WHERE id = $1 FOR UPDATE',
        [transferId],
      );
      if (!row) throw new ProviderError('not_found', `No such transfer: ${transferId}`);
      if (row.reversed_at) return [];
      const at = new Date();
      await manager.query('UPDATE sandbox_transfers SET reversed_at = $2 WHERE id = $1', [transferId, at]);
      await this.recordBalance(manager, 'transfer_refund', transferId, row.amount_cents, 0, at);
      return [await this.recordEvent(manager, 'transfer.reversed', transferId)];
    });
    await this.deliver(events);
    return (await this.retrieveTransfer(transferId)) as ProviderTransfer;
  }

  /** The platform's balance transactions created in [from, to), oldest first, a page at a time. */
  async *balanceTransactions(from: Date, to: Date): AsyncIterable<ProviderBalanceTransaction[]> {
    // The cursor keeps the database's microseconds (a JS Date would round them off and repeat a row per page).
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const rows: (ProviderBalanceTransaction & { cursor: string })[] = await this.dataSource.query(
        `SELECT id, type, source_id, amount_cents::float8 AS amount_cents, fee_cents::float8 AS fee_cents, net_cents::float8 AS net_cents, created_at,
           created_at::text AS cursor
         FROM sandbox_balance_transactions
         WHERE created_at >= $1 AND created_at < $2 AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::text))
         ORDER BY created_at, id LIMIT $5`,
        [from, to, after?.at ?? null, after?.id ?? null, BALANCE_PAGE],
      );
      if (rows.length === 0) return;
      yield rows.map(({ cursor: _cursor, ...txn }) => txn);
      if (rows.length < BALANCE_PAGE) return;
      const last = rows[rows.length - 1];
      after = { at: last.cursor, id: last.id };
    }
  }

  /** Writes the balance transaction a capture, refund or transfer leaves (within the caller's transaction). */
  async recordBalance(manager: EntityManager, type: string, sourceId: string, amountCents: number, feeCents: number, at: Date): Promise<string> {
    const id = token('txn_sbx');
    await manager.query(
      'INSERT INTO sandbox_balance_transactions (id, type, source_id, amount_cents, fee_cents, net_cents, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [id, type, sourceId, amountCents, feeCents, amountCents - feeCents, at],
    );
    return id;
  }

  private async recordEvent(manager: EntityManager, type: 'account.updated' | 'transfer.created' | 'transfer.reversed', objectId: string): Promise<ProviderEvent> {
    const at = new Date();
    const id = token('evt_sbx');
    await manager.query('INSERT INTO sandbox_events (id, type, object_id, at) VALUES ($1, $2, $3, $4)', [id, type, objectId, at]);
    return type === 'account.updated' ? { id, type, account_id: objectId, at } : { id, type, transfer_id: objectId, at };
  }
}

/**
 * The sandbox's card fee on a capture, as Stripe's US pricing has it (2.9% + 30¢, rounded half up): the provider
 * fee the ledger records and the platform bears (ADR 0063). Never above the amount.
 */
export function sandboxCardFee(amountCents: number): number {
  return Math.min(amountCents, Math.floor((amountCents * 29 + 500) / 1000) + 30);
}
