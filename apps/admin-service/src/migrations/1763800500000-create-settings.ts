import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One row of platform settings, kept as a whole document. */
export class CreateSettings1763800500000 implements MigrationInterface {
  name = 'CreateSettings1763800500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE settings (
        id smallint PRIMARY KEY CHECK (id = 1),
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE settings');
  }
}
