import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved cards (ADR 0041): the member's verified payment method (one per member, its last four digits only), the
 * SetupIntents billing started for each member (so a confirmation is matched to who asked), and the sandbox's own
 * SetupIntents (its stand-in for Stripe's).
 */
export class PaymentMethods1764500000000 implements MigrationInterface {
  name = 'PaymentMethods1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE payment_methods (
        user_id uuid PRIMARY KEY,
        provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
        setup_intent_id text NOT NULL,
        card_last4 text CHECK (card_last4 ~ '^[0-9]{4}$'),
        saved_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE setup_intents (
        id text PRIMARY KEY,
        user_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX setup_intents_user_idx ON setup_intents (user_id, created_at DESC)');
    await queryRunner.query(`
      CREATE TABLE sandbox_setup_intents (
        id text PRIMARY KEY,
        idempotency_key text NOT NULL UNIQUE,
        user_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('requires_payment_method', 'succeeded', 'canceled')),
        client_secret text NOT NULL,
        card_last4 text,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sandbox_setup_intents');
    await queryRunner.query('DROP TABLE setup_intents');
    await queryRunner.query('DROP TABLE payment_methods');
  }
}
