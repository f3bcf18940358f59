import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Who wrote each event and its signature, made as it is written and published with it (D25, ADR 0065). */
export class OutboxSignature1763800000004 implements MigrationInterface {
  name = 'OutboxSignature1763800000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Nullable: a row written before this migration goes out unsigned, and its consumers dead-letter it (operations.md).
    await queryRunner.query('ALTER TABLE outbox ADD COLUMN sender text, ADD COLUMN signature text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox DROP COLUMN sender, DROP COLUMN signature');
  }
}
