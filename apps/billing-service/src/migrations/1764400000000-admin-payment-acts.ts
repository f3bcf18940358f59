import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An admin's capture or refund of a payment is recorded once, as soon as the provider has done it and apart from the
 * reconciliation that follows (ADR 0032): one row per intent and action keys it, so a retried or doubled request
 * writes its admin.acted event once.
 */
export class AdminPaymentActs1764400000000 implements MigrationInterface {
  name = 'AdminPaymentActs1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE admin_payment_acts (
        payment_intent_id uuid NOT NULL REFERENCES payment_intents (id),
        action text NOT NULL CHECK (action IN ('payment.captured', 'payment.refunded')),
        admin_id uuid NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (payment_intent_id, action)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE admin_payment_acts');
  }
}
