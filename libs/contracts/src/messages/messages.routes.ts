import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import {
  ContactResponseSchema,
  ContactSchema,
  MarkMessageReadResponseSchema,
  MessagesResponseSchema,
  SendMessageResponseSchema,
  SendMessageSchema,
  UnreadCountResponseSchema,
} from './message.schemas';

const MessagePath = z.object({ id: UuidSchema });

/** Messages between members (SPEC §7, ADR 0024). */
export const MESSAGES_ROUTES = {
  send: defineRoute({
    method: 'post',
    path: '/messages',
    tag: 'messages',
    summary: 'Send a message to a member, optionally about a listing',
    description:
      'The receiver is emailed. Not to oneself (400), nor to a suspended member (403); the receiver, and a named listing, ' +
      'must exist and be visible to the sender (404). At most 20 an hour and 100 a day per sender (429).',
    auth: 'user',
    body: SendMessageSchema,
    idempotent: true,
    status: 201,
    reply: SendMessageResponseSchema,
    errors: [400, 403, 404, 429],
  }),
  list: defineRoute({
    method: 'get',
    path: '/messages',
    tag: 'messages',
    summary: "The caller's sent and received messages, newest first (at most 200)",
    description:
      'Each message says whether it was sent or received (`direction`) and whether it was read; a party whose account was deleted is ' +
      'named [deleted user]. Listing marks nothing read.',
    auth: 'user',
    status: 200,
    reply: MessagesResponseSchema,
  }),
  unreadCount: defineRoute({
    method: 'get',
    path: '/messages/unread-count',
    tag: 'messages',
    summary: 'How many received messages the caller has not read',
    description:
      'Counts every unread received message, not only those GET /messages returns. A message becomes read only through POST /messages/{id}/read.',
    auth: 'user',
    status: 200,
    reply: UnreadCountResponseSchema,
  }),
  markRead: defineRoute({
    method: 'post',
    path: '/messages/{id}/read',
    tag: 'messages',
    summary: 'Mark a received message read (idempotent); answers the new unread count',
    description: 'Only its receiver may (403 for its sender); anyone else gets a 404.',
    auth: 'user',
    params: MessagePath,
    status: 200,
    reply: MarkMessageReadResponseSchema,
    errors: [403, 404],
  }),
};

/** The public contact form (SPEC §5). */
export const CONTACT_ROUTES = {
  submit: defineRoute({
    method: 'post',
    path: '/contact',
    tag: 'contact',
    summary: 'Write to the marketplace team',
    description: 'Stored and mailed to support; a signed-in sender is named. Rate limited per client address.',
    auth: 'optional',
    body: ContactSchema,
    status: 200,
    reply: ContactResponseSchema,
    errors: [429],
  }),
};
