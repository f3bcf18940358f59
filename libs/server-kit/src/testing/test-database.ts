import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A throwaway database on the test PostgreSQL server, dropped by drop(). */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The PostgreSQL server tests use: TEST_DATABASE_URL, else the local server's `test` database. */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: testServerUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates a fresh, empty database so a test file never shares state with another. */
export async function createTestDatabase(label = 'it'): Promise<TestDatabase> {
  const name = `${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
