import type { MessageDto, MessageParty } from '@market/contracts';
import { unreadBadge } from '../../components/messages/unread';

/** Messages between the user and one other person about one listing (or none), oldest first. */
export interface Conversation {
  key: string;
  counterpart: MessageParty;
  listing_id: string | null;
  listing_title: string | null;
  messages: MessageDto[];
  /** Received and not yet read. */
  unread: number;
  last_at: string;
}

export const NO_MESSAGES_TEXT = 'No messages yet.';
export const NO_MESSAGES_HINT = 'Contact a seller from a listing page, or message a bidder from My Bids: conversations show up here.';

/** Groups a user's messages into conversations by counterpart and listing, the latest conversation first. */
export function conversationsOf(messages: MessageDto[]): Conversation[] {
  const byKey = new Map<string, Conversation>();
  for (const message of messages) {
    const counterpart = message.direction === 'received' ? message.sender : message.receiver;
    const key = `${counterpart.id}:${message.listing_id ?? 'direct'}`;
    let conversation = byKey.get(key);
    if (!conversation) {
      conversation = { key, counterpart, listing_id: message.listing_id, listing_title: message.listing_title, messages: [], unread: 0, last_at: message.created_at };
      byKey.set(key, conversation);
    }
    conversation.messages.push(message);
    if (message.direction === 'received' && !message.read) conversation.unread += 1;
    if (message.created_at > conversation.last_at) conversation.last_at = message.created_at;
  }
  for (const conversation of byKey.values()) conversation.messages.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return [...byKey.values()].sort((a, b) => b.last_at.localeCompare(a.last_at));
}

/** The subject of a reply: 'Re: ' once, however long the thread. */
export function replySubject(subject: string): string {
  return /^re:\s/i.test(subject) ? subject : `Re: ${subject}`;
}

/** The tab's label and its badge (the unread count, as the header shows it too). */
export function messagesTabLabel(unread: number): { text: string; badge: string | null } {
  return { text: 'Messages', badge: unreadBadge(unread) };
}

/** When a message was sent, as the tab shows it. */
export function messageTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
}
