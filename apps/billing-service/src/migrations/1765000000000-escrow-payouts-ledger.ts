import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money that reaches the seller (D22, ADR 0063): sellers' payout accounts, one payout per invoice, and the ledger:
 * append-only transactions whose lines must sum to zero (a deferred constraint trigger refuses an unbalanced one at
 * commit), with the daily reconciliation's runs and the differences it found. A sale whose held funds go back to the
 * buyer is cancelled with the reason `refunded`. The sandbox provider keeps accounts, onboarding links, transfers and
 * its balance transactions, as Stripe does on its side; its events may now name an account or a transfer.
 */
export class EscrowPayoutsLedger1765000000000 implements MigrationInterface {
  name = 'EscrowPayoutsLedger1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // An admin's refund claims the invoice before the provider is asked, so a release cannot slip in meanwhile.
    await queryRunner.query('ALTER TABLE invoices ADD COLUMN refund_started_at timestamptz');
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_cancel_reason_check');
    await queryRunner.query(`ALTER TABLE invoices ADD CONSTRAINT invoices_cancel_reason_check CHECK (cancel_reason IN ('unpaid', 'admin_cancelled', 'refunded'))`);
    await queryRunner.query(`
      CREATE TABLE payout_accounts (
        user_id uuid PRIMARY KEY,
        provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
        provider_account_id text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('not_started', 'details_needed', 'pending_verification', 'enabled', 'restricted')),
        requirements_due text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE payouts (
        id uuid PRIMARY KEY,
        invoice_id uuid NOT NULL UNIQUE REFERENCES invoices (id),
        seller_id uuid NOT NULL,
        gross_cents bigint NOT NULL CHECK (gross_cents > 0),
        fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
        net_cents bigint NOT NULL CHECK (net_cents > 0),
        status text NOT NULL CHECK (status IN ('waiting_for_account', 'pending', 'paid', 'reversed')),
        -- Who released it: an admin (their id), a dispute's decision, or the inspection period ending.
        released_by text NOT NULL,
        idempotency_key text NOT NULL UNIQUE,
        -- The captured charge the money came from (Stripe's source_transaction), when the provider named one.
        source_transaction text,
        provider_transfer_id text UNIQUE,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        waiting_told_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (gross_cents = fee_cents + net_cents),
        CHECK ((status IN ('paid', 'reversed')) = (provider_transfer_id IS NOT NULL AND paid_at IS NOT NULL))
      )`);
    await queryRunner.query('CREATE INDEX payouts_seller_idx ON payouts (seller_id, created_at DESC)');
    // The authorised charge of a payment, kept from the provider's answer: a payout's source without asking again.
    await queryRunner.query('ALTER TABLE payment_intents ADD COLUMN charge_id text');
    await queryRunner.query(`CREATE INDEX payouts_unsent_idx ON payouts (created_at) WHERE status IN ('waiting_for_account', 'pending')`);
    // The auto-release sweep: held invoices whose transfer was verified or received.
    await queryRunner.query(`
      CREATE INDEX invoices_release_due_idx ON invoices (LEAST(transfer_verified_at, transfer_received_at))
        WHERE status = 'payment_authorized' AND (transfer_verified_at IS NOT NULL OR transfer_received_at IS NOT NULL)`);
    await this.ledger(queryRunner);
    await this.sandbox(queryRunner);
    await this.openingBalances(queryRunner);
  }

  /**
   * Holds authorised before the ledger existed get their opening `authorization` transaction, so their capture,
   * release or refund balances like any other. Invoices paid before D22 were captured without a payout: they are left
   * to support (docs/operations.md, "Sales paid before payouts"), never paid out by a deploy.
   */
  private async openingBalances(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      WITH held AS (SELECT id, invoice_id, amount_cents, gen_random_uuid() AS txn FROM payment_intents WHERE status = 'requires_capture'),
      t AS (INSERT INTO ledger_transactions (id, kind, invoice_id, idempotency_key) SELECT txn, 'authorization', invoice_id, 'authorization:' || id FROM held RETURNING id)
      INSERT INTO ledger_entries (transaction_id, line, account, amount_cents)
      SELECT held.txn, l.line, l.account, l.amount FROM held CROSS JOIN LATERAL (VALUES (1, 'card_holds', held.amount_cents), (2, 'escrow_held', -held.amount_cents)) AS l(line, account, amount)`);
  }

  private async ledger(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ledger_transactions (
        id uuid PRIMARY KEY,
        kind text NOT NULL
          CHECK (kind IN ('authorization', 'capture', 'hold_released', 'refund_owed', 'refund_paid', 'release', 'payout', 'payout_reversed')),
        invoice_id uuid REFERENCES invoices (id),
        payout_id uuid REFERENCES payouts (id),
        -- What made it (the kind and the provider's or our own id): a provider's retry never writes it twice.
        idempotency_key text NOT NULL UNIQUE,
        -- The provider's balance transaction this one must match, and the provider's time of it (the day it is reconciled on).
        provider_ref text UNIQUE,
        provider_at timestamptz,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query('CREATE INDEX ledger_transactions_invoice_idx ON ledger_transactions (invoice_id, occurred_at)');
    await queryRunner.query('CREATE INDEX ledger_transactions_provider_at_idx ON ledger_transactions (provider_at) WHERE provider_at IS NOT NULL');
    await queryRunner.query(`
      CREATE TABLE ledger_entries (
        transaction_id uuid NOT NULL REFERENCES ledger_transactions (id),
        line smallint NOT NULL,
        account text NOT NULL
          CHECK (account IN ('card_holds', 'platform_balance', 'escrow_held', 'seller_payable', 'refunds', 'platform_fees', 'provider_fees')),
        party_id uuid,
        amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
        PRIMARY KEY (transaction_id, line),
        CHECK ((account = 'seller_payable') = (party_id IS NOT NULL))
      )`);
    await queryRunner.query('CREATE INDEX ledger_entries_account_idx ON ledger_entries (account, party_id)');
    // A transaction's lines must sum to zero, and there must be at least two: checked at commit, whatever wrote them.
    await queryRunner.query(`
      CREATE FUNCTION ledger_transaction_balances() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        -- The transaction's id is in the column the trigger names (transaction_id of a line, id of a transaction).
        txn uuid := (to_jsonb(NEW) ->> TG_ARGV[0])::uuid;
        total numeric;
        lines integer;
      BEGIN
        -- The lines live beside the row's table, whatever the session's search_path.
        EXECUTE format('SELECT coalesce(sum(amount_cents), 0), count(*) FROM %I.ledger_entries WHERE transaction_id = $1', TG_TABLE_SCHEMA)
          INTO total, lines USING txn;
        IF total <> 0 OR lines < 2 THEN
          RAISE EXCEPTION 'ledger transaction % does not balance: % cents over % lines', txn, total, lines USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER ledger_entries_balance AFTER INSERT ON ledger_entries
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances('transaction_id')`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER ledger_transactions_have_lines AFTER INSERT ON ledger_transactions
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances('id')`);
    await queryRunner.query(`
      CREATE FUNCTION ledger_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'billing.% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    for (const table of ['ledger_transactions', 'ledger_entries']) {
      await queryRunner.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only()`);
      await queryRunner.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ledger_is_append_only()`);
    }
    await queryRunner.query(`
      CREATE TABLE ledger_reconciliations (
        id uuid PRIMARY KEY,
        window_from timestamptz NOT NULL,
        window_to timestamptz NOT NULL,
        provider_transactions integer NOT NULL,
        ledger_transactions integer NOT NULL,
        differences integer NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`
      CREATE TABLE ledger_differences (
        id uuid PRIMARY KEY,
        provider_ref text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('missing_in_ledger', 'missing_at_provider', 'amount_differs')),
        ledger_cents bigint,
        provider_cents bigint,
        -- When the provider (or the ledger, for one the provider lacks) says it happened; a run resolves what its window covers.
        at timestamptz NOT NULL,
        day date NOT NULL,
        found_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX ledger_differences_open_idx ON ledger_differences (provider_ref, kind) WHERE resolved_at IS NULL');
  }

  private async sandbox(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sandbox_accounts (
        id text PRIMARY KEY,
        idempotency_key text NOT NULL UNIQUE,
        user_id uuid NOT NULL,
        details_submitted boolean NOT NULL DEFAULT false,
        payouts_enabled boolean NOT NULL DEFAULT false,
        currently_due text[] NOT NULL DEFAULT '{}',
        past_due text[] NOT NULL DEFAULT '{}',
        pending_verification text[] NOT NULL DEFAULT '{}',
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE sandbox_account_links (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES sandbox_accounts (id),
        refresh_url text NOT NULL,
        return_url text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE sandbox_balance_transactions (
        id text PRIMARY KEY,
        type text NOT NULL,
        source_id text NOT NULL,
        amount_cents bigint NOT NULL,
        fee_cents bigint NOT NULL,
        net_cents bigint NOT NULL,
        created_at timestamptz NOT NULL,
        CHECK (net_cents = amount_cents - fee_cents)
      )`);
    await queryRunner.query('CREATE INDEX sandbox_balance_transactions_created_idx ON sandbox_balance_transactions (created_at, id)');
    await queryRunner.query('CREATE UNIQUE INDEX sandbox_balance_transactions_source_idx ON sandbox_balance_transactions (type, source_id)');
    await queryRunner.query(`
      CREATE TABLE sandbox_transfers (
        id text PRIMARY KEY,
        idempotency_key text NOT NULL UNIQUE,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        destination text NOT NULL REFERENCES sandbox_accounts (id),
        transfer_group text,
        source_transaction text,
        created_at timestamptz NOT NULL,
        reversed_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX sandbox_transfers_group_idx ON sandbox_transfers (transfer_group)');
    await queryRunner.query('ALTER TABLE sandbox_intents ADD COLUMN charge_id text UNIQUE');
    // Events may now name an account or a transfer instead of an intent.
    await queryRunner.query('ALTER TABLE sandbox_events ALTER COLUMN intent_id DROP NOT NULL, ADD COLUMN object_id text');
    await queryRunner.query('UPDATE sandbox_events SET object_id = intent_id');
    await queryRunner.query('ALTER TABLE sandbox_events ALTER COLUMN object_id SET NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM sandbox_events WHERE intent_id IS NULL');
    await queryRunner.query('ALTER TABLE sandbox_events DROP COLUMN object_id, ALTER COLUMN intent_id SET NOT NULL');
    await queryRunner.query('ALTER TABLE sandbox_intents DROP COLUMN charge_id');
    for (const table of ['sandbox_transfers', 'sandbox_balance_transactions', 'sandbox_account_links', 'sandbox_accounts']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    for (const table of ['ledger_differences', 'ledger_reconciliations', 'ledger_entries', 'ledger_transactions']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query('DROP FUNCTION ledger_is_append_only()');
    await queryRunner.query('DROP FUNCTION ledger_transaction_balances()');
    await queryRunner.query('DROP INDEX invoices_release_due_idx');
    await queryRunner.query('DROP TABLE payouts');
    await queryRunner.query('ALTER TABLE payment_intents DROP COLUMN charge_id');
    await queryRunner.query('DROP TABLE payout_accounts');
    await queryRunner.query(`UPDATE invoices SET status = 'payment_canceled', cancelled_at = NULL, cancel_reason = NULL WHERE cancel_reason = 'refunded'`);
    await queryRunner.query('ALTER TABLE invoices DROP CONSTRAINT invoices_cancel_reason_check');
    await queryRunner.query('ALTER TABLE invoices DROP COLUMN refund_started_at');
    await queryRunner.query(`ALTER TABLE invoices ADD CONSTRAINT invoices_cancel_reason_check CHECK (cancel_reason IN ('unpaid', 'admin_cancelled'))`);
  }
}
