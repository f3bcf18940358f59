import { z } from 'zod';
import { IsoDateTimeSchema, MessageResponseSchema, UuidSchema } from '../common.schemas';

/** True when the text holds a character below U+0020 other than tab, line feed or carriage return. */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) return true;
    if (code === 127) return true;
  }
  return false;
}

const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !hasControlCharacters(v), `${label} contains characters that are not allowed`);

/** Ids are compared in lower case so that an upper-case copy of a UUID names the same row. */
const id = (message: string) => z.uuid({ message }).transform((v) => v.toLowerCase());

/** A one-line field: it becomes an email subject, where a line break has no place. */
const line = (label: string, max: number) => text(label, max).refine((v) => !/[\r\n]/.test(v), `${label} must be one line`);

export const MESSAGE_SUBJECT_MAX = 200;
export const MESSAGE_CONTENT_MAX = 5000;
/** How many messages one member may send (ADR 0024): each one emails its receiver, so the site must not be a spam relay. */
export const MESSAGE_SEND_LIMITS = [
  { max: 20, windowMinutes: 60 },
  { max: 100, windowMinutes: 24 * 60 },
] as const;

/** POST /api/messages (SPEC §7): subject and message required (SPEC §5). listing_id may be null for a direct message. */
export const SendMessageSchema = z
  .object({
    receiver_id: id('Not a valid recipient'),
    listing_id: id('Not a valid listing id').nullable().optional(),
    subject: line('Subject', MESSAGE_SUBJECT_MAX),
    content: text('Message', MESSAGE_CONTENT_MAX),
  })
  .strict().meta({ id: 'SendMessageRequest' });
export type SendMessage = z.infer<typeof SendMessageSchema>;

/** A user as a message shows them ('[deleted user]' once the account is gone). */
export const MessagePartySchema = z.strictObject({ id: z.uuid(), username: z.string() }).meta({ id: 'MessageParty' });
export type MessageParty = z.infer<typeof MessagePartySchema>;

/** A message as its sender or receiver sees it (SPEC §3 Message: receiver_id as sent, and both parties named). */
export const MessageSchema = z.strictObject({
  id: z.uuid(),
  sender: MessagePartySchema,
  receiver: MessagePartySchema,
  /** The same id as receiver.id (SPEC §3 names the field). */
  receiver_id: z.uuid(),
  listing_id: z.uuid().nullable(),
  listing_title: z.string().nullable(),
  subject: z.string(),
  content: z.string(),
  read: z.boolean(),
  created_at: IsoDateTimeSchema,
  /** 'received' when the actor is the receiver. */
  direction: z.enum(['sent', 'received']),
}).meta({ id: 'Message' });
export type MessageDto = z.infer<typeof MessageSchema>;

/** POST /api/messages answer. */
export const SendMessageResponseSchema = z.strictObject({ message: z.string(), data: MessageSchema }).meta({ id: 'SendMessageResponse' });
export type SendMessageResponse = z.infer<typeof SendMessageResponseSchema>;

/** GET /api/messages: the actor's sent and received messages, newest first (at most 200). */
export const MessagesResponseSchema = z.strictObject({ messages: z.array(MessageSchema) }).meta({ id: 'MessagesResponse' });
export type MessagesResponse = z.infer<typeof MessagesResponseSchema>;

/** GET /api/messages/unread-count. */
export const UnreadCountResponseSchema = z.strictObject({ unread_count: z.number().int() }).meta({ id: 'UnreadCountResponse' });
export type UnreadCountResponse = z.infer<typeof UnreadCountResponseSchema>;

/** notifications.messages.mark_read: the message the path names (compared in lower case). */
export const MarkMessageReadRequestSchema = z.object({ id: UuidSchema.transform((v) => v.toLowerCase()) }).strict();

/** POST /api/messages/{id}/read answer: the receiver's new unread count. */
export const MarkMessageReadResponseSchema = z.strictObject({ message: z.string(), unread_count: z.number().int() }).meta({ id: 'MarkMessageReadResponse' });
export type MarkMessageReadResponse = z.infer<typeof MarkMessageReadResponseSchema>;

export const CONTACT_SUBJECTS = [
  'General Inquiry',
  'Technical Support',
  'Account Issues',
  'Payment & Billing',
  'Listing Questions',
  'Report a Problem',
  'Partnership Opportunities',
  'Press & Media',
  'Other',
] as const;
export const CONTACT_URGENCIES = ['low', 'normal', 'high'] as const;
export type ContactUrgency = (typeof CONTACT_URGENCIES)[number];

/** POST /api/contact (SPEC §5): name, email, subject, message required; urgency defaults to normal. */
export const ContactSchema = z
  .object({
    name: line('Name', 100),
    email: z.string({ message: 'Email is required' }).trim().toLowerCase().pipe(z.email({ message: 'Enter a valid email address' }).max(254)),
    subject: z.enum(CONTACT_SUBJECTS, { message: 'Choose a subject from the list' }),
    message: text('Message', MESSAGE_CONTENT_MAX),
    urgency: z.enum(CONTACT_URGENCIES, { message: 'Urgency must be low, normal or high' }).default('normal'),
  })
  .strict().meta({ id: 'ContactRequest' });
export type ContactForm = z.infer<typeof ContactSchema>;

/** notifications.contact.submit: the form and the sender's address as the gateway saw it. */
export const ContactSubmissionSchema = z.object({ form: ContactSchema, client_address: z.string().max(64).nullable() }).strict();

/** POST /api/contact answer: the text the form shows (SPEC §8). */
export const ContactResponseSchema = MessageResponseSchema.meta({ id: 'ContactResponse' });
export type ContactResponse = z.infer<typeof ContactResponseSchema>;

/** The texts of SPEC §8 for messages and the contact form, shared by server and web. */
export const MESSAGE_TEXTS = {
  sent: 'Message sent successfully!',
  sendFailed: 'Error sending message. Please try again.',
  contactThanks: "Thank you for your message! We'll get back to you within 24 hours.",
  contactFailed: 'Sorry, there was an error sending your message. Please try again.',
  tooMany: 'You have sent a lot of messages recently. Please wait a while before sending more.',
  recipientUnavailable: 'This member cannot receive messages right now.',
} as const;
