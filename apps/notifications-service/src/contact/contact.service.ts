import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MESSAGE_TEXTS, type Actor, type ContactForm, type ContactResponse } from '@market/contracts';
import { ContactRepository } from './contact.repository';

/** The contact form (SPEC §5): anyone may write; the contact.received consumer mails it to support. */
@Injectable()
export class ContactService {
  constructor(private readonly contacts: ContactRepository) {}

  /** Stores a contact message (with the signed-in sender, if any) and answers SPEC §8's thank-you text. */
  async submit(actor: Actor | null, form: ContactForm, clientAddress: string | null): Promise<ContactResponse> {
    await this.contacts.insert({ id: randomUUID(), userId: actor?.user_id ?? null, form, clientAddress });
    return { message: MESSAGE_TEXTS.contactThanks };
  }
}
