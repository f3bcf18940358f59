import type { MessagesResponse, SendMessage, SendMessageResponse, UnreadCountResponse } from '@market/contracts';
import { api } from '../lib/api';
import { retryableKeyHeaders } from '../lib/idempotency-key';

/** The signed-in user's messages and unread count: sending and reading reload both. */
const MESSAGES = 'Messages';
/** How often an open dashboard asks for the unread count (the badge), in ms. */
export const UNREAD_POLL_MS = 60_000;

/** /api/messages: send, list, unread count, mark read (SPEC §7). */
export const messagesApi = api.enhanceEndpoints({ addTagTypes: [MESSAGES] }).injectEndpoints({
  endpoints: (build) => ({
    messages: build.query<MessagesResponse, void>({
      query: () => '/messages',
      providesTags: [MESSAGES],
    }),
    unreadCount: build.query<UnreadCountResponse, void>({
      query: () => '/messages/unread-count',
      providesTags: [MESSAGES],
    }),
    sendMessage: build.mutation<SendMessageResponse, SendMessage>({
      query: (body) => ({ url: '/messages', method: 'POST', body, headers: retryableKeyHeaders('/messages', body) }),
      invalidatesTags: (result) => (result ? [MESSAGES] : []),
    }),
    markMessageRead: build.mutation<{ message: string; unread_count: number }, string>({
      query: (id) => ({ url: `/messages/${encodeURIComponent(id)}/read`, method: 'POST' }),
      invalidatesTags: [MESSAGES],
    }),
  }),
});

export const { useMessagesQuery, useUnreadCountQuery, useSendMessageMutation, useMarkMessageReadMutation } = messagesApi;

/** Sends a message, answering the server's reply (or throwing its error): what ComposeMessageDialog sends with. */
export function useSendMessage(): { send: (message: SendMessage) => Promise<SendMessageResponse>; sending: boolean } {
  const [send, { isLoading }] = useSendMessageMutation();
  return { send: (message) => send(message).unwrap(), sending: isLoading };
}
