import { Client } from 'pg';

/**
 * Runs one statement against the e2e system's own database (E2E_DATABASE_URL, set by the global setup). Journeys use
 * it only for what no screen can do quickly, such as moving an auction's end near.
 */
export async function sql<Row = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<Row[]> {
  const connectionString = process.env.E2E_DATABASE_URL;
  if (!connectionString) throw new Error('E2E_DATABASE_URL is not set: run through jest.e2e.config.js');
  const client = new Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** Waits until a query's first row satisfies a check (services apply events asynchronously); returns that row. */
export async function waitForRow<Row = Record<string, unknown>>(
  text: string,
  params: unknown[],
  check: (row: Row) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<Row> {
  const deadline = Date.now() + timeoutMs;
  let last: Row | undefined;
  while (Date.now() < deadline) {
    [last] = await sql<Row>(text, params);
    if (last && check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}; last row: ${JSON.stringify(last ?? null)}`);
}
