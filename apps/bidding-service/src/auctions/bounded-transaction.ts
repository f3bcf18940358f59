import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { overloaded } from '@market/server-kit';

// A bid waits at most this long for its auction's row lock, so nothing commits after the gateway (5 s) gave up on it.
const LOCK_TIMEOUT = '2s';
const LOCK_NOT_AVAILABLE = '55P03';
/** The answer when a bid waited LOCK_TIMEOUT for its auction's row (counted as lock_timeout in the bid metrics). */
export const LISTING_BUSY = 'This listing is busy right now; nothing was changed. Please try again.';

/**
 * A transaction that waits at most LOCK_TIMEOUT for any row lock; a longer wait is a clear 503 and changes nothing.
 * Opened and bounded in one round trip, not two (ADR 0062).
 */
export async function lockBoundedTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    await startTransactionWith(runner, `SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    const result = await work(runner.manager);
    await runner.commitTransaction();
    return result;
  } catch (error) {
    // The original error is the answer even when the rollback fails too.
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    if ((error as { driverError?: { code?: string } }).driverError?.code === LOCK_NOT_AVAILABLE) throw overloaded(LISTING_BUSY);
    throw error;
  } finally {
    await runner.release();
  }
}

/**
 * Opens a transaction on `runner` together with `statement` (a SET LOCAL) in one round trip (ADR 0062), and leaves the
 * runner as TypeORM's own startTransaction would: in a transaction, so appendEvent accepts it and commitTransaction or
 * rollbackTransaction end it. Nothing in this service listens to TypeORM's transaction events.
 */
export async function startTransactionWith(runner: QueryRunner, statement: string): Promise<void> {
  try {
    await runner.query(`START TRANSACTION; ${statement}`);
  } catch (error) {
    // The START may have gone through before the statement failed: the connection goes back to the pool without it.
    await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  Object.assign(runner as unknown as TransactionState, { isTransactionActive: true, transactionDepth: 1 } satisfies TransactionState);
}

// What PostgresQueryRunner keeps of an open transaction (typeorm 0.3): commitTransaction and rollbackTransaction read it.
interface TransactionState {
  isTransactionActive: boolean;
  transactionDepth: number;
}
