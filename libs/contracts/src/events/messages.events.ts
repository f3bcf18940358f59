import { z } from 'zod';
import { id, text, time } from './fields.schemas';

/** Member messages and contact-form mail, written by notifications-service. */
export const MESSAGE_EVENTS = {
  /** A user sent another user a message (SPEC §7): the receiver is emailed (D19). */
  'message.sent': z.object({
    message_id: id,
    sender_id: id,
    receiver_id: id,
    listing_id: id.nullable(),
    subject: text,
    /** The first 500 characters, for the email. */
    preview: text,
    created_at: time,
  }),
  /** The contact form was sent (SPEC §5): stored, then mailed to support (D19). */
  'contact.received': z.object({
    contact_id: id,
    /** The signed-in sender, if any. */
    user_id: id.nullable(),
    name: text,
    email: text,
    subject: text,
    urgency: z.enum(['low', 'normal', 'high']),
    message: text,
    received_at: time,
  }),
};
