import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card payments (D11, D12, ADR 0020): the platform's payment intents, provider events seen (dedupe),
 * and the sandbox provider's own store. No table holds a card number (D12).
 */
export class CreatePayments1763801300000 implements MigrationInterface {
  name = 'CreatePayments1763801300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE payment_intents (
        id uuid PRIMARY KEY,
        provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
        provider_intent_id text NOT NULL UNIQUE,
        invoice_id uuid NOT NULL REFERENCES invoices (id),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL DEFAULT 'usd' CHECK (currency = 'usd'),
        status text NOT NULL
          CHECK (status IN ('requires_payment_method', 'requires_confirmation', 'requires_capture', 'processing', 'succeeded', 'canceled', 'failed')),
        capture_method text NOT NULL DEFAULT 'manual' CHECK (capture_method = 'manual'),
        client_secret text NOT NULL,
        idempotency_key text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        authorized_at timestamptz,
        captured_at timestamptz,
        succeeded_at timestamptz,
        refunded_at timestamptz,
        canceled_at timestamptz,
        last_error text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One payment underway or holding funds per invoice: a double click or a second tab continues it (ADR 0020).
    await queryRunner.query(`CREATE UNIQUE INDEX payment_intents_one_open_idx ON payment_intents (invoice_id)
      WHERE status IN ('requires_payment_method', 'requires_confirmation', 'processing', 'requires_capture')`);
    await queryRunner.query('CREATE INDEX payment_intents_created_idx ON payment_intents (created_at DESC)');
    // An invoice's latest payment (admin Transactions, the dialog's lookup): one index probe.
    await queryRunner.query('CREATE INDEX payment_intents_invoice_idx ON payment_intents (invoice_id, created_at DESC)');
    // The hold-expiry sweep: requires_capture by authorisation time.
    await queryRunner.query('CREATE INDEX payment_intents_status_auth_idx ON payment_intents (status, authorized_at)');
    await queryRunner.query(`
      CREATE TABLE provider_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        provider_intent_id text,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The sandbox provider's own state (D12), as Stripe would keep it on its side.
    await queryRunner.query(`
      CREATE TABLE sandbox_intents (
        id text PRIMARY KEY,
        idempotency_key text NOT NULL UNIQUE,
        status text NOT NULL,
        amount_cents bigint NOT NULL,
        currency text NOT NULL,
        client_secret text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        authorized_at timestamptz,
        captured_at timestamptz,
        refunded_at timestamptz,
        canceled_at timestamptz,
        cancellation_reason text,
        last_error text
      )`);
    await queryRunner.query(`
      CREATE TABLE sandbox_checkout_sessions (
        id text PRIMARY KEY,
        intent_id text NOT NULL REFERENCES sandbox_intents (id),
        success_url text NOT NULL,
        cancel_url text NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Its webhook queue: every state change writes its events here in the same transaction; delivery is retried.
    await queryRunner.query(`
      CREATE TABLE sandbox_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        intent_id text NOT NULL REFERENCES sandbox_intents (id),
        at timestamptz NOT NULL,
        delivered_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX sandbox_events_undelivered_idx ON sandbox_events (at) WHERE delivered_at IS NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['sandbox_events', 'sandbox_checkout_sessions', 'sandbox_intents', 'provider_events', 'payment_intents']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
