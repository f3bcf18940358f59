import type { DataSource } from 'typeorm';
import type { RpcErrorPayload } from '@market/contracts';

/** Which write a key names: the same key from another user or for another subject is another key. */
export interface IdempotencyScope {
  user_id: string;
  subject: string;
  key: string;
}

/** A finished write's first answer: its reply, or the typed refusal it met. */
export type StoredAnswer = { ok: unknown } | { error: RpcErrorPayload };

/** What a claim found: this request runs the write, or another already did or is doing it. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'running' }
  | { kind: 'mismatch' }
  | { kind: 'done'; answer: StoredAnswer };

/** How long a key answers its first result (ADR 0047); after that the same key is a new request. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;

/** The idempotency_keys table of a service's own schema (ADR 0047). */
export class IdempotencyKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims a key for this request, committed before the write starts so a concurrent duplicate sees it; an expired row
   * is taken over. Otherwise says what the earlier request left.
   */
  async claim(scope: IdempotencyScope, fingerprint: string): Promise<Claim> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const claimed: unknown[] = await this.dataSource.query(
        `INSERT INTO idempotency_keys (user_id, subject, key, fingerprint, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
         ON CONFLICT (user_id, subject, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, state = 'running', reply = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= now()
         RETURNING 1`,
        [scope.user_id, scope.subject, scope.key, fingerprint, IDEMPOTENCY_KEY_TTL_SECONDS],
      );
      if (claimed.length > 0) return { kind: 'claimed' };
      const [row]: { fingerprint: string; state: 'running' | 'done'; reply: StoredAnswer | null }[] = await this.dataSource.query(
        'SELECT fingerprint, state, reply FROM idempotency_keys WHERE user_id = $1 AND subject = $2 AND key = $3',
        [scope.user_id, scope.subject, scope.key],
      );
      // Released by a failed first attempt between the two statements: claim again.
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'running' || row.reply === null) return { kind: 'running' };
      return { kind: 'done', answer: row.reply };
    }
    return { kind: 'running' };
  }

  /** Keeps a finished write's first answer for the key's retries. */
  async finish(scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET state = 'done', reply = $4 WHERE user_id = $1 AND subject = $2 AND key = $3`,
      [scope.user_id, scope.subject, scope.key, JSON.stringify(answer)],
    );
  }

  /** Frees a key whose write failed without an answer (a 5xx: nothing was committed), so a retry runs it again. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND subject = $2 AND key = $3 AND state = 'running'`, [
      scope.user_id,
      scope.subject,
      scope.key,
    ]);
  }
}
