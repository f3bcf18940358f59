import type { QueryRunner } from 'typeorm';

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
