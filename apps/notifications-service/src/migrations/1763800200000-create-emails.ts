import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEmails1763800200000 implements MigrationInterface {
  name = 'CreateEmails1763800200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE emails (
        id bigserial PRIMARY KEY,
        job_id text NOT NULL UNIQUE,
        kind text NOT NULL,
        to_address text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        transport text NOT NULL CHECK (transport IN ('smtp', 'log')),
        request_id text,
        sent_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX emails_to_address_idx ON emails (lower(to_address), sent_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE emails');
  }
}
