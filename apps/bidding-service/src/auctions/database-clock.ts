/**
 * The database's clock read under an auction's lock, in UTC with microseconds ("2026-12-06T09:40:12.123456Z"): bids are
 * stamped from it (so every bid of a listing is later than those decided before it, whichever replica decides), and a
 * bid's event carries its stamp before it is written and signed (ADR 0065).
 */
export const DATABASE_CLOCK = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The stamp, to the millisecond as events carry it, of the bid recorded `micros` microseconds after `clock` (a
 * DATABASE_CLOCK reading): the time PostgreSQL's to_char(…, 'MS') writes for it, which drops the microseconds.
 */
export function stampAfter(clock: string, micros: number): string {
  const parts = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})Z$/.exec(clock);
  if (!parts || !Number.isInteger(micros) || micros < 0) throw new Error(`Not a database clock reading: ${clock}`);
  return new Date(Date.parse(`${parts[1]}Z`) + Math.floor((Number(parts[2]) + micros) / 1000)).toISOString();
}
