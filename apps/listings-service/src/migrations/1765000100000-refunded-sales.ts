import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A sale whose held funds went back to the buyer is unwound too (D22, ADR 0063): `refunded` joins the reasons. */
export class RefundedSales1765000100000 implements MigrationInterface {
  name = 'RefundedSales1765000100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE unwound_sales DROP CONSTRAINT IF EXISTS unwound_sales_reason_check');
    await queryRunner.query(`ALTER TABLE unwound_sales ADD CONSTRAINT unwound_sales_reason_check CHECK (reason IN ('unpaid', 'admin_cancelled', 'refunded'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE unwound_sales SET reason = 'admin_cancelled' WHERE reason = 'refunded'`);
    await queryRunner.query('ALTER TABLE unwound_sales DROP CONSTRAINT unwound_sales_reason_check');
    await queryRunner.query(`ALTER TABLE unwound_sales ADD CONSTRAINT unwound_sales_reason_check CHECK (reason IN ('unpaid', 'admin_cancelled'))`);
  }
}
