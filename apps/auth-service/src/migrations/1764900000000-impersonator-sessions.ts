import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The admin's session an impersonation was started from: ending it ends the impersonation (ADR 0065). */
export class ImpersonatorSessions1764900000000 implements MigrationInterface {
  name = 'ImpersonatorSessions1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions ADD COLUMN impersonator_session_id uuid');
    await queryRunner.query('CREATE INDEX sessions_impersonator_session_idx ON sessions (impersonator_session_id) WHERE impersonator_session_id IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX sessions_impersonator_session_idx');
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN impersonator_session_id');
  }
}
