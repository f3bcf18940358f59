import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

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

const COLUMNS = 'id, sender_id, receiver_id, listing_id, listing_title, subject, content, read_at, created_at';

/** Messages between users; the only place that touches the messages table (reads and writes only). */
@Injectable()
export class MessagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Holds the sender's lock for the rest of the transaction, so racing sends count one after the other. */
  async lockSender(senderId: string, manager: EntityManager): Promise<void> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtextextended('messages.sender:' || $1, 0))", [senderId]);
  }

  /** How many messages the sender sent in the last `windowMinutes`. */
  async sentWithin(senderId: string, windowMinutes: number, manager: EntityManager): Promise<number> {
    const [{ n }] = (await manager.query(`SELECT count(*)::int AS n FROM messages WHERE sender_id = $1 AND created_at > now() - make_interval(mins => $2)`, [
      senderId,
      windowMinutes,
    ])) as { n: number }[];
    return n;
  }

  /** Seconds until the sender's message `offset` (oldest first) of the last `windowMinutes` leaves the window. */
  async secondsUntilLeaving(senderId: string, windowMinutes: number, offset: number, manager: EntityManager): Promise<number> {
    const [{ reset }] = (await manager.query(
      `SELECT ceil(extract(epoch FROM created_at + make_interval(mins => $2) - now()))::int AS reset
         FROM messages WHERE sender_id = $1 AND created_at > now() - make_interval(mins => $2)
        ORDER BY created_at ASC OFFSET $3 LIMIT 1`,
      [senderId, windowMinutes, offset],
    )) as { reset: number }[];
    return reset;
  }

  /** Stores a message. */
  async insert(message: NewMessage, manager: EntityManager): Promise<MessageRow> {
    const [row] = (await manager.query(
      `INSERT INTO messages (id, sender_id, receiver_id, listing_id, listing_title, subject, content)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [message.id, message.sender_id, message.receiver_id, message.listing_id, message.listing_title, message.subject, message.content],
    )) as MessageRow[];
    return row;
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
