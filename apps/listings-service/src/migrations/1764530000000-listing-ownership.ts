import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ownership proof of a listing's domain (ADR 0040): the seller's token and the pacing of checks per listing, and on the
 * listing the address that was proven. A trigger forgets the proof whenever the website address changes, whatever path
 * changes it (the seller's edit, an admin's).
 */
export class ListingOwnership1764530000000 implements MigrationInterface {
  name = 'ListingOwnership1764530000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ownership_proofs (
        listing_id uuid PRIMARY KEY REFERENCES listings (id) ON DELETE CASCADE,
        seller_id uuid NOT NULL,
        token text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_checked_at timestamptz,
        window_started_at timestamptz,
        checks_in_window integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`
      ALTER TABLE listings
        ADD COLUMN ownership_verified_url text,
        ADD COLUMN ownership_verified_at timestamptz,
        ADD COLUMN ownership_method text CHECK (ownership_method IN ('dns', 'file'))`);
    await queryRunner.query(`
      CREATE FUNCTION listings_forget_ownership() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.ownership_verified_url := NULL;
        NEW.ownership_verified_at := NULL;
        NEW.ownership_method := NULL;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER listings_forget_ownership BEFORE UPDATE OF website_url ON listings
        FOR EACH ROW WHEN (OLD.website_url IS DISTINCT FROM NEW.website_url) EXECUTE FUNCTION listings_forget_ownership()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER listings_forget_ownership ON listings');
    await queryRunner.query('DROP FUNCTION listings_forget_ownership()');
    await queryRunner.query('ALTER TABLE listings DROP COLUMN ownership_verified_url, DROP COLUMN ownership_verified_at, DROP COLUMN ownership_method');
    await queryRunner.query('DROP TABLE ownership_proofs');
  }
}
