import { defineRpc } from '../rpc';
import { EmptyRequestSchema } from '../common.schemas';
import { RecentEmailsResponseSchema } from '../admin/admin.schemas';
import {
  ContactResponseSchema,
  ContactSubmissionSchema,
  MarkMessageReadRequestSchema,
  MarkMessageReadResponseSchema,
  MessagesResponseSchema,
  SendMessageResponseSchema,
  SendMessageSchema,
  UnreadCountResponseSchema,
} from './message.schemas';

/** notifications-service's request subjects. */
export const NOTIFICATIONS_RPC = {
  /** The admin dashboard's latest emails (the mailbox when no SMTP server is configured). */
  recentEmails: defineRpc('notifications.recent_emails', EmptyRequestSchema, RecentEmailsResponseSchema),
  /** POST /api/messages, GET /api/messages, GET /api/messages/unread-count, mark read (SPEC §7). */
  sendMessage: defineRpc('notifications.messages.send', SendMessageSchema, SendMessageResponseSchema),
  listMessages: defineRpc('notifications.messages.list', EmptyRequestSchema, MessagesResponseSchema),
  unreadCount: defineRpc('notifications.messages.unread_count', EmptyRequestSchema, UnreadCountResponseSchema),
  markMessageRead: defineRpc('notifications.messages.mark_read', MarkMessageReadRequestSchema, MarkMessageReadResponseSchema),
  /** POST /api/contact (SPEC §5). */
  submitContact: defineRpc('notifications.contact.submit', ContactSubmissionSchema, ContactResponseSchema),
};
