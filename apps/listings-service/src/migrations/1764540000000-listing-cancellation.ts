import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An admin's cancellation of a listing (ADR 0042): a final status, with when and why, so the listing page can say it
 * was cancelled and the audit log and emails carry the reason. A sale bidding completed before the cancellation reached
 * it stands (the listing then reads sold and keeps the record of the attempt).
 */
export class ListingCancellation1764540000000 implements MigrationInterface {
  name = 'ListingCancellation1764540000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE listings DROP CONSTRAINT listings_status_check`);
    await queryRunner.query(
      `ALTER TABLE listings ADD CONSTRAINT listings_status_check CHECK (status IN ('pending', 'active', 'paused', 'draft', 'sold', 'expired', 'cancelled'))`,
    );
    await queryRunner.query(`ALTER TABLE listings ADD COLUMN cancelled_at timestamptz, ADD COLUMN cancel_reason text`);
    await queryRunner.query(
      `ALTER TABLE listings ADD CONSTRAINT listings_cancelled_check CHECK (status <> 'cancelled' OR (cancelled_at IS NOT NULL AND cancel_reason IS NOT NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE listings DROP CONSTRAINT listings_cancelled_check`);
    await queryRunner.query(`ALTER TABLE listings DROP COLUMN cancelled_at, DROP COLUMN cancel_reason`);
    await queryRunner.query(`ALTER TABLE listings DROP CONSTRAINT listings_status_check`);
    await queryRunner.query(
      `ALTER TABLE listings ADD CONSTRAINT listings_status_check CHECK (status IN ('pending', 'active', 'paused', 'draft', 'sold', 'expired'))`,
    );
  }
}
