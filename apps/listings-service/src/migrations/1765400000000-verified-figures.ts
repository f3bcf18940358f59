import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified figures (D24, ADR 0084): listing_verifications keeps one connection per listing and source (the key or
 * refresh token sealed with the service's bus key, never in clear), verification_snapshots the dated monthly figures
 * each refresh took, and verification_states the single-use states of GA4 consents (CSRF). The listing's
 * revenue_verified and traffic_verified say a source is connected and current: cards and the browse filter read them.
 */
export class VerifiedFigures1765400000000 implements MigrationInterface {
  name = 'VerifiedFigures1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE listing_verifications (
        listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
        source text NOT NULL CHECK (source IN ('stripe', 'ga4')),
        seller_id uuid NOT NULL,
        credential bytea NOT NULL,
        property_id text,
        account_label text,
        test_mode boolean NOT NULL,
        state text NOT NULL CHECK (state IN ('active', 'failing', 'revoked')),
        connected_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_error text,
        PRIMARY KEY (listing_id, source),
        CHECK ((source = 'ga4') = (property_id IS NOT NULL))
      )`);
    await queryRunner.query(`
      CREATE TABLE verification_snapshots (
        id bigserial PRIMARY KEY,
        listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
        source text NOT NULL CHECK (source IN ('stripe', 'ga4')),
        taken_at timestamptz NOT NULL DEFAULT now(),
        test_mode boolean NOT NULL,
        months jsonb NOT NULL,
        monthly_average bigint,
        monthly_average_users bigint,
        other_currency_charges integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query('CREATE INDEX verification_snapshots_latest_idx ON verification_snapshots (listing_id, source, taken_at DESC)');
    await queryRunner.query(`
      CREATE TABLE verification_states (
        state text PRIMARY KEY,
        listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
        seller_id uuid NOT NULL,
        property_id text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query('ALTER TABLE listings ADD COLUMN revenue_verified boolean NOT NULL DEFAULT false, ADD COLUMN traffic_verified boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE listings DROP COLUMN revenue_verified, DROP COLUMN traffic_verified');
    await queryRunner.query('DROP TABLE verification_states');
    await queryRunner.query('DROP TABLE verification_snapshots');
    await queryRunner.query('DROP TABLE listing_verifications');
  }
}
