import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One audit log for admins' own acts and impersonation (ADR 0032): the impersonation table gains the target's kind,
 * the admin behind an impersonated act and the changed values, and becomes append-only for real: a trigger refuses
 * every UPDATE, DELETE and TRUNCATE, whoever asks. Existing rows stay as they are (impersonation of a user). A small
 * table of who has acted serves the username filter.
 */
export class AuditLogForAdminActs1763801600000 implements MigrationInterface {
  name = 'AuditLogForAdminActs1763801600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE audit_log
        ADD COLUMN impersonator_id uuid,
        ADD COLUMN target_type text NOT NULL DEFAULT 'user',
        ADD COLUMN target_label text,
        ADD COLUMN before jsonb,
        ADD COLUMN after jsonb,
        ADD COLUMN changed_secrets text[] NOT NULL DEFAULT '{}',
        ALTER COLUMN target_id DROP NOT NULL,
        ALTER COLUMN method DROP NOT NULL,
        ALTER COLUMN route DROP NOT NULL`);
    // Newest first, a page at a time (at, id), and the filters' columns.
    await queryRunner.query('DROP INDEX audit_log_at_idx');
    await queryRunner.query('CREATE INDEX audit_log_at_id_idx ON audit_log (at DESC, id DESC)');
    await queryRunner.query('CREATE INDEX audit_log_admin_idx ON audit_log (admin_id, at DESC)');
    await queryRunner.query('CREATE INDEX audit_log_impersonator_idx ON audit_log (impersonator_id, at DESC) WHERE impersonator_id IS NOT NULL');
    await queryRunner.query('CREATE INDEX audit_log_target_idx ON audit_log (target_id, at DESC)');
    await queryRunner.query('CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC)');
    // Everyone who ever acted, so a username filter asks the auth service about a handful of admins, not every row.
    await queryRunner.query('CREATE TABLE audit_actors (user_id uuid PRIMARY KEY)');
    await queryRunner.query('INSERT INTO audit_actors (user_id) SELECT DISTINCT admin_id FROM audit_log');
    await queryRunner.query(`
      CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'admin.audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_update_or_delete BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only()`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Admins' acts do not fit the impersonation shape and rows cannot be deleted: the table is rebuilt without them.
    await queryRunner.query(`
      CREATE TABLE audit_log_impersonation (
        id uuid PRIMARY KEY,
        admin_id uuid NOT NULL,
        target_id uuid NOT NULL,
        action text NOT NULL,
        method text NOT NULL,
        route text NOT NULL,
        at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO audit_log_impersonation SELECT id, admin_id, target_id, action, method, route, at FROM audit_log
      WHERE target_id IS NOT NULL AND method IS NOT NULL AND route IS NOT NULL`);
    await queryRunner.query('DROP TABLE audit_log');
    await queryRunner.query('DROP TABLE audit_actors');
    await queryRunner.query('DROP FUNCTION audit_log_is_append_only()');
    await queryRunner.query('ALTER TABLE audit_log_impersonation RENAME TO audit_log');
    await queryRunner.query('CREATE INDEX audit_log_at_idx ON audit_log (at DESC)');
  }
}
