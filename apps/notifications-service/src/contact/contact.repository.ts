import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ContactForm } from '@market/contracts';
import { appendEvent } from '@market/server-kit';

/** Contact-form messages to support; the only place that touches their table. */
@Injectable()
export class ContactRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores a contact message and its contact.received event in one transaction. */
  insert(input: { id: string; userId: string | null; form: ContactForm; clientAddress: string | null }): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(
        `INSERT INTO contact_messages (id, user_id, name, email, subject, urgency, message, client_address)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`,
        [input.id, input.userId, input.form.name, input.form.email, input.form.subject, input.form.urgency, input.form.message, input.clientAddress],
      )) as { created_at: Date }[];
      await appendEvent(manager, 'contact.received', {
        contact_id: input.id,
        user_id: input.userId,
        ...input.form,
        received_at: row.created_at.toISOString(),
      });
    });
  }
}
