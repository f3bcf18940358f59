import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ContactForm } from '@market/contracts';

/** Contact-form messages to support; the only place that touches their table (reads and writes only). */
@Injectable()
export class ContactRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A transaction of this repository's database. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Stores a contact message; returns when it was received. */
  async insert(input: { id: string; userId: string | null; form: ContactForm; clientAddress: string | null }, manager: EntityManager): Promise<Date> {
    const [row] = (await manager.query(
      `INSERT INTO contact_messages (id, user_id, name, email, subject, urgency, message, client_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`,
      [input.id, input.userId, input.form.name, input.form.email, input.form.subject, input.form.urgency, input.form.message, input.clientAddress],
    )) as { created_at: Date }[];
    return row.created_at;
  }
}
