import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMessages1763801500000 implements MigrationInterface {
  name = 'CreateMessages1763801500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY,
        sender_id uuid NOT NULL,
        receiver_id uuid NOT NULL,
        listing_id uuid,
        listing_title text,
        subject text NOT NULL,
        content text NOT NULL,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (sender_id <> receiver_id)
      )`);
    // The unread badge counts a receiver's unread rows; the tab lists what a user sent and received.
    await queryRunner.query('CREATE INDEX messages_unread_idx ON messages (receiver_id) WHERE read_at IS NULL');
    await queryRunner.query('CREATE INDEX messages_receiver_idx ON messages (receiver_id, created_at DESC)');
    await queryRunner.query('CREATE INDEX messages_sender_idx ON messages (sender_id, created_at DESC)');
    await queryRunner.query(`
      CREATE TABLE contact_messages (
        id uuid PRIMARY KEY,
        user_id uuid,
        name text NOT NULL,
        email text NOT NULL,
        subject text NOT NULL,
        urgency text NOT NULL CHECK (urgency IN ('low', 'normal', 'high')),
        message text NOT NULL,
        client_address text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX contact_messages_created_idx ON contact_messages (created_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE contact_messages');
    await queryRunner.query('DROP TABLE messages');
  }
}
