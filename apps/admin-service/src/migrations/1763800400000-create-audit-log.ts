import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Impersonation audit: who acted as whom, what they did, when. */
export class CreateAuditLog1763800400000 implements MigrationInterface {
  name = 'CreateAuditLog1763800400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_log (
        id uuid PRIMARY KEY,
        admin_id uuid NOT NULL,
        target_id uuid NOT NULL,
        action text NOT NULL,
        method text NOT NULL,
        route text NOT NULL,
        at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX audit_log_at_idx ON audit_log (at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE audit_log');
  }
}
