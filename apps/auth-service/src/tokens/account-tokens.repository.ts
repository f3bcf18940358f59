import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';

export type TokenPurpose = 'verify_email' | 'reset_password' | 'undo_email_change';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export interface ValidToken {
  id: string;
  user_id: string;
  email: string;
  created_at: Date;
}

/** Tokens are 256 random bits; only their SHA-256 is stored, so a database leak yields no usable link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** One-time account tokens: issued inside the caller's transaction, consumed at most once. */
@Injectable()
export class AccountTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Issues a token and voids the user's earlier unused ones of the same purpose, unless `keepEarlier` (undo links:
   * a newer email change must not bury the link an earlier one sent, ADR 0034).
   */
  async issue(
    manager: EntityManager,
    input: { userId: string; purpose: TokenPurpose; email: string; ttlMs: number; keepEarlier?: boolean },
  ): Promise<IssuedToken> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + input.ttlMs);
    if (!input.keepEarlier) await this.voidUnused(manager, input.userId, input.purpose);
    await manager.query(
      `INSERT INTO account_tokens (id, user_id, purpose, token_hash, email, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [randomUUID(), input.userId, input.purpose, hashToken(token), input.email, expiresAt],
    );
    return { token, expiresAt };
  }

  /** Voids a user's unused tokens of one purpose (a new one was issued, or the email or password changed). */
  async voidUnused(manager: EntityManager, userId: string, purpose: TokenPurpose): Promise<void> {
    await manager.query(`UPDATE account_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [userId, purpose]);
  }

  /** Voids a user's unused undo links issued after `after` (the changes that followed the one being undone). */
  async voidUndoLinksAfter(manager: EntityManager, userId: string, after: Date): Promise<void> {
    await manager.query(
      `UPDATE account_tokens SET used_at = now() WHERE user_id = $1 AND purpose = 'undo_email_change' AND used_at IS NULL AND created_at > $2`,
      [userId, after],
    );
  }

  /** True while another account's live undo link was sent to this address: it stays theirs to take back (ADR 0034). */
  async undoPendingFor(email: string, exceptUserId: string | null, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      `SELECT 1 FROM account_tokens
       WHERE purpose = 'undo_email_change' AND used_at IS NULL AND expires_at > now() AND lower(email) = lower($1)
         AND ($2::uuid IS NULL OR user_id <> $2::uuid)
       LIMIT 1`,
      [email, exceptUserId],
    );
    return rows.length > 0;
  }

  /** Marks a valid token used and returns it; null when unknown, used or expired. Single use even under races. */
  async consume(manager: EntityManager, token: string, purpose: TokenPurpose): Promise<ValidToken | null> {
    // TypeORM answers an UPDATE ... RETURNING on PostgreSQL with [rows, affectedCount].
    const [rows] = (await manager.query(
      `UPDATE account_tokens SET used_at = now()
       WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING id, user_id, email, created_at`,
      [hashToken(token), purpose],
    )) as [ValidToken[], number];
    return rows[0] ?? null;
  }

  /** Runs fn in a transaction (token and user changes commit together). */
  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }
}
