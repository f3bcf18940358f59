import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * Counts a failed publish on the outbox row the relay had in hand, in its own statement outside the batch transaction
 * (ADR 0046): a batch that rolls back must not take its failure counter with it. Best effort: when the database itself
 * is what failed, the count is lost and the relay's log line is what remains.
 */
export async function recordOutboxFailure(dataSource: DataSource, seq: string | null, error: unknown, logger: Pick<Logger, 'warn'>): Promise<void> {
  if (seq === null) return;
  const message = String((error as Error)?.message ?? error).slice(0, 500);
  try {
    await dataSource.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE seq = $1', [seq, message]);
  } catch (recordError) {
    logger.warn(`Could not record the outbox failure of row ${seq}: ${(recordError as Error).message}`);
  }
}
