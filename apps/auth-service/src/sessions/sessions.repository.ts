import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';

export interface SessionRow {
  id: string;
  user_id: string;
  kind: 'login' | 'impersonation';
  impersonator_id: string | null;
  user_agent: string | null;
  address: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface NewSession {
  userId: string;
  kind: SessionRow['kind'];
  impersonatorId?: string | null;
  /** The admin's session an impersonation was started from: when it ends, so does the impersonation. */
  impersonatorSessionId?: string | null;
  userAgent?: string | null;
  address?: string | null;
  expiresAt: Date;
}

const COLUMNS = 'id, user_id, kind, impersonator_id, user_agent, address, created_at, last_seen_at, expires_at, revoked_at';

/** The only place that reads and writes auth.sessions. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private runner(manager?: EntityManager) {
    return manager ?? this.dataSource.manager;
  }

  async create(session: NewSession, manager?: EntityManager): Promise<SessionRow> {
    const [row]: SessionRow[] = await this.runner(manager).query(
      `INSERT INTO sessions (id, user_id, kind, impersonator_id, impersonator_session_id, user_agent, address, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [randomUUID(), session.userId, session.kind, session.impersonatorId ?? null, session.impersonatorSessionId ?? null, session.userAgent ?? null, session.address ?? null, session.expiresAt],
    );
    return row;
  }

  async find(id: string): Promise<SessionRow | null> {
    const [row]: SessionRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM sessions WHERE id = $1`, [id]);
    return row ?? null;
  }

  /** True when the session is (or was) one of the user's own, ended or not. */
  async belongsTo(id: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows.length > 0;
  }

  /** True while the session exists, belongs to the user, is not revoked and has not expired. */
  async isLive(id: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()',
      [id, userId],
    );
    return rows.length > 0;
  }

  /** A user's live login sessions, newest first (impersonations are the admin's business, not listed to the user). */
  listLive(userId: string): Promise<SessionRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM sessions WHERE user_id = $1 AND kind = 'login' AND revoked_at IS NULL AND expires_at > now()
       ORDER BY created_at DESC LIMIT 100`,
      [userId],
    );
  }

  /**
   * When a live session of the user ends, or null when it is not live: an impersonation never outlives it. Inside a
   * transaction the row is held (FOR SHARE) until it commits, so ending the session waits for what is started from it.
   */
  async liveUntil(id: string, userId: string, manager?: EntityManager): Promise<Date | null> {
    const [row]: { expires_at: Date }[] = await this.runner(manager).query(
      `SELECT expires_at FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()${manager ? ' FOR SHARE' : ''}`,
      [id, userId],
    );
    return row?.expires_at ?? null;
  }

  /**
   * Ends one session of a user and the impersonations started from it; the ids it ended (none when it was not theirs
   * or already over).
   */
  async revoke(userId: string, id: string, manager?: EntityManager): Promise<string[]> {
    // Two statements: the second reads after the first, which waited for any impersonation being started from this
    // session (it holds the row FOR SHARE), so that one is ended too. An UPDATE answers [rows, count] through TypeORM.
    const runner = this.runner(manager);
    const [own]: [{ id: string }[], number] = await runner.query(
      'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
      [id, userId],
    );
    const [started]: [{ id: string }[], number] = await runner.query(
      'UPDATE sessions SET revoked_at = now() WHERE impersonator_session_id = $1 AND impersonator_id = $2 AND revoked_at IS NULL RETURNING id',
      [id, userId],
    );
    return [...own, ...started].map((row) => row.id);
  }

  /** Ends every live session of a user but `except`, and every impersonation they started; the ids it ended. */
  async revokeAll(userId: string, except: string | null, manager?: EntityManager): Promise<string[]> {
    const [rows]: [{ id: string }[], number] = await this.runner(manager).query(
      `UPDATE sessions SET revoked_at = now()
       WHERE (user_id = $1 OR impersonator_id = $1) AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)
       RETURNING id`,
      [userId, except],
    );
    return rows.map((row) => row.id);
  }
}
