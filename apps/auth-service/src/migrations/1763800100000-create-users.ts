import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsers1763800100000 implements MigrationInterface {
  name = 'CreateUsers1763800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        username text NOT NULL,
        email text NOT NULL,
        password_hash text NOT NULL,
        name text,
        bio text,
        website text,
        phone text,
        location text,
        role text NOT NULL DEFAULT 'regular' CHECK (role IN ('admin', 'regular')),
        verified boolean NOT NULL DEFAULT false,
        email_verified_at timestamptz,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
        token_version integer NOT NULL DEFAULT 0,
        age_confirmed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Login and uniqueness are case-insensitive (D13).
    await queryRunner.query('CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username))');
    await queryRunner.query('CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE users');
  }
}
