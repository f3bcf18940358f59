import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repricing and moderation (ADR 0038): the price version bidding stamps on bid.placed and auction.repriced, so a listing
 * keeps the newest price even when a rejection lowers its count (until now the count was the version, so existing rows
 * start at it); a flag on the listings moderation paused, so a reactivation restores exactly those and never one the
 * seller paused; and each member's moderation state as auth-service announced it, versioned by when it changed.
 */
export class PriceVersionAndModeration1764510100000 implements MigrationInterface {
  name = 'PriceVersionAndModeration1764510100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE listings ADD COLUMN price_version integer NOT NULL DEFAULT 0');
    await queryRunner.query('UPDATE listings SET price_version = bid_count WHERE bid_count > 0');
    await queryRunner.query('ALTER TABLE listings ADD COLUMN moderation_paused boolean NOT NULL DEFAULT false');
    // The flag means "paused by moderation": whatever moves a listing out of paused (its end, a withdrawal, an admin)
    // drops it, so a later reactivation cannot bring that listing back.
    await queryRunner.query(`
      CREATE FUNCTION listings_moderation_flag() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status <> 'paused' THEN NEW.moderation_paused := false; END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER listings_moderation_flag BEFORE UPDATE OF status ON listings FOR EACH ROW WHEN (NEW.moderation_paused)
       EXECUTE FUNCTION listings_moderation_flag()`,
    );
    await queryRunner.query(`CREATE INDEX listings_moderation_paused_idx ON listings (seller_id) WHERE moderation_paused`);
    await queryRunner.query(`
      CREATE TABLE member_states (
        user_id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('active', 'suspended', 'deleted')),
        changed_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE member_states');
    await queryRunner.query('DROP INDEX listings_moderation_paused_idx');
    await queryRunner.query('DROP TRIGGER listings_moderation_flag ON listings');
    await queryRunner.query('DROP FUNCTION listings_moderation_flag()');
    await queryRunner.query('ALTER TABLE listings DROP COLUMN moderation_paused');
    await queryRunner.query('ALTER TABLE listings DROP COLUMN price_version');
  }
}
