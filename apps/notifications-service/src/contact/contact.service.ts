import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MESSAGE_TEXTS, type Actor, type ContactForm, type ContactResponse } from '@market/contracts';
import { appendEvent } from '@market/server-kit';
import { ContactRepository } from './contact.repository';

/** The contact form (SPEC §5): anyone may write; the contact.received consumer mails it to support. */
@Injectable()
export class ContactService {
  constructor(private readonly contacts: ContactRepository) {}

  /** Stores a contact message (with the signed-in sender, if any) and answers SPEC §8's thank-you text. */
  async submit(actor: Actor | null, form: ContactForm, clientAddress: string | null): Promise<ContactResponse> {
    const id = randomUUID();
    const userId = actor?.user_id ?? null;
    // The message and its contact.received commit together (outbox).
    await this.contacts.transaction(async (manager) => {
      const receivedAt = await this.contacts.insert({ id, userId, form, clientAddress }, manager);
      await appendEvent(manager, 'contact.received', { contact_id: id, user_id: userId, ...form, received_at: receivedAt.toISOString() });
    });
    return { message: MESSAGE_TEXTS.contactThanks };
  }
}
