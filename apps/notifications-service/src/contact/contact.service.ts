import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ContactSchema, MESSAGE_TEXTS, type Actor, type ContactResponse } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { ContactRepository } from './contact.repository';

const ContactMessage = z.object({ form: z.unknown(), client_address: z.string().max(64).nullable() }).strict();

/** The contact form (SPEC §5): anyone may write; the contact.received consumer mails it to support. */
@Injectable()
export class ContactService {
  constructor(private readonly contacts: ContactRepository) {}

  /** Stores a contact message (with the signed-in sender, if any) and answers SPEC §8's thank-you text. */
  async submit(actor: Actor | null, input: unknown): Promise<ContactResponse> {
    const { form, client_address } = parseInput(ContactMessage, input);
    const checked = parseInput(ContactSchema, form);
    await this.contacts.insert({ id: randomUUID(), userId: actor?.user_id ?? null, form: checked, clientAddress: client_address });
    return { message: MESSAGE_TEXTS.contactThanks };
  }
}
