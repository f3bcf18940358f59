import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { appendEvent } from '@market/server-kit';

/** A message to store: the listing's title is copied so the thread keeps its name. */
export interface NewMessage {
  id: string;
  sender_id: string;
  receiver_id: string;
  listing_id: string | null;
  listing_title: string | null;
  subject: string;
  content: string;
}

/** A message row as stored. */
export interface MessageRow extends NewMessage {
  read_at: Date | null;
  created_at: Date;
}

/** At most `max` messages from one sender in any `windowMinutes`. */
export interface SendLimit {
  max: number;
  windowMinutes: number;
}

/** A send refused by a limit: which one, and the seconds until its oldest counted message leaves the window. */
export interface SendRefused {
  limit: SendLimit;
  resetSeconds: number;
}

const PREVIEW_LENGTH = 500;
const COLUMNS = 'id, sender_id, receiver_id, listing_id, listing_title, subject, content, read_at, created_at';

/** Messages between users; the only place that touches the messages table. */
@Injectable()
export class MessagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a message and its message.sent event in one transaction, or answers the limit that refuses it when the
   * sender has already sent `max` messages in its window (checked under a per-sender lock, so racing sends cannot both
   * slip under it).
   */
  insert(message: NewMessage, limits: readonly SendLimit[]): Promise<{ row: MessageRow } | { refused: SendRefused }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtextextended('messages.sender:' || $1, 0))", [message.sender_id]);
      // Every limit is checked, and the one with the longest wait answers: waiting it out leaves room in all of them.
      let refused: SendRefused | null = null;
      for (const limit of limits) {
        const [{ n }] = (await manager.query(
          `SELECT count(*)::int AS n FROM messages WHERE sender_id = $1 AND created_at > now() - make_interval(mins => $2)`,
          [message.sender_id, limit.windowMinutes],
        )) as { n: number }[];
        if (n < limit.max) continue;
        // The window has room again when the message that puts the count at the limit leaves it.
        const [{ reset }] = (await manager.query(
          `SELECT ceil(extract(epoch FROM created_at + make_interval(mins => $2) - now()))::int AS reset
             FROM messages WHERE sender_id = $1 AND created_at > now() - make_interval(mins => $2)
            ORDER BY created_at ASC OFFSET $3 LIMIT 1`,
          [message.sender_id, limit.windowMinutes, n - limit.max],
        )) as { reset: number }[];
        const resetSeconds = Math.max(1, reset);
        if (!refused || resetSeconds > refused.resetSeconds) refused = { limit, resetSeconds };
      }
      if (refused) return { refused };
      const [row] = (await manager.query(
        `INSERT INTO messages (id, sender_id, receiver_id, listing_id, listing_title, subject, content)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [message.id, message.sender_id, message.receiver_id, message.listing_id, message.listing_title, message.subject, message.content],
      )) as MessageRow[];
      await appendEvent(manager, 'message.sent', {
        message_id: row.id,
        sender_id: row.sender_id,
        receiver_id: row.receiver_id,
        listing_id: row.listing_id,
        subject: row.subject,
        preview: row.content.slice(0, PREVIEW_LENGTH),
        created_at: row.created_at.toISOString(),
      });
      return { row };
    });
  }

  /** What a user sent and received, newest first. */
  forUser(userId: string, limit: number): Promise<MessageRow[]> {
    // Two index scans merged, instead of one OR that cannot use either index.
    return this.dataSource.query(
      `(SELECT ${COLUMNS} FROM messages WHERE receiver_id = $1 ORDER BY created_at DESC LIMIT $2)
       UNION ALL
       (SELECT ${COLUMNS} FROM messages WHERE sender_id = $1 ORDER BY created_at DESC LIMIT $2)
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [userId, limit],
    );
  }

  /** The receiver's unread messages. */
  async unreadCount(userId: string): Promise<number> {
    const [row] = (await this.dataSource.query('SELECT count(*)::int AS n FROM messages WHERE receiver_id = $1 AND read_at IS NULL', [userId])) as { n: number }[];
    return row.n;
  }

  /** One message, or null. */
  async find(id: string): Promise<MessageRow | null> {
    const rows = (await this.dataSource.query(`SELECT ${COLUMNS} FROM messages WHERE id = $1`, [id])) as MessageRow[];
    return rows[0] ?? null;
  }

  /** Marks a message read once; a second call keeps the first time. */
  async markRead(id: string): Promise<void> {
    await this.dataSource.query('UPDATE messages SET read_at = now() WHERE id = $1 AND read_at IS NULL', [id]);
  }
}
