import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  MESSAGE_SEND_LIMITS,
  MESSAGE_TEXTS,
  RPC,
  type Actor,
  type ListingDto,
  type MarkMessageReadResponse,
  type MessageDto,
  type MessagesResponse,
  type SendMessage,
  type SendMessageResponse,
  type UnreadCountResponse,
} from '@market/contracts';
import { ServiceRpc, appendEvent, publicProfiles, rateLimited, requireActor } from '@market/server-kit';
import { MessagesRepository, type MessageRow, type NewMessage } from './messages.repository';
import { authorizeMarkRead, authorizeReceiver, authorizeSendTo } from './message.policy';

const LIST_LIMIT = 200;
const PREVIEW_LENGTH = 500;

/** At most `max` messages from one sender in any `windowMinutes`. */
export interface SendLimit {
  max: number;
  windowMinutes: number;
}

/** A send refused by a limit: which one, and the seconds until its oldest counted message leaves the window. */
export interface SendRefused {
  limit: SendLimit;
  resetSeconds: number;
}
const DELETED_USER = '[deleted user]';

/** Messages between users (SPEC §7): send, list, unread count, mark read. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly rpc: ServiceRpc,
  ) {}

  /** Sends a message from the actor; the receiver must exist and the listing, when named, must be one they can see. */
  async send(actor: Actor | null, message: SendMessage): Promise<SendMessageResponse> {
    const sender = requireActor(actor);
    authorizeSendTo(sender, message.receiver_id);
    // Both names are known before the message is stored, so nothing after the commit can fail and invite a second send.
    const { contacts } = await this.rpc.call(RPC.auth.contacts, { user_ids: [message.receiver_id, sender.user_id] }, null);
    const receiver = contacts.find((c) => c.id === message.receiver_id) ?? null;
    authorizeReceiver(receiver);
    const listing = message.listing_id ? await this.listing(sender, message.listing_id) : null;
    const stored = await this.store(
      {
        id: randomUUID(),
        sender_id: sender.user_id,
        receiver_id: receiver.id,
        listing_id: listing?.id ?? null,
        listing_title: listing?.title ?? null,
        subject: message.subject,
        content: message.content,
      },
      MESSAGE_SEND_LIMITS,
    );
    if ('refused' in stored) {
      const { limit, resetSeconds } = stored.refused;
      throw rateLimited(MESSAGE_TEXTS.tooMany, {
        policy: `messages-${limit.windowMinutes}m`,
        quota: limit.max,
        window_seconds: limit.windowMinutes * 60,
        unit: 'requests',
        remaining: 0,
        reset_seconds: resetSeconds,
      });
    }
    const { row } = stored;
    const names = new Map(contacts.map((c) => [c.id, c.username]));
    return { message: MESSAGE_TEXTS.sent, data: toDto(row, sender.user_id, (id) => names.get(id)) };
  }

  /**
   * Stores a message and its message.sent event in one transaction, or answers the limit that refuses it when the
   * sender has already sent `max` messages in its window (counted under a per-sender lock, so racing sends cannot both
   * slip under it).
   */
  private store(message: NewMessage, limits: readonly SendLimit[]): Promise<{ row: MessageRow } | { refused: SendRefused }> {
    return this.messages.transaction(async (manager) => {
      await this.messages.lockSender(message.sender_id, manager);
      // Every limit is checked, and the one with the longest wait answers: waiting it out leaves room in all of them.
      let refused: SendRefused | null = null;
      for (const limit of limits) {
        const n = await this.messages.sentWithin(message.sender_id, limit.windowMinutes, manager);
        if (n < limit.max) continue;
        // The window has room again when the message that puts the count at the limit leaves it.
        const resetSeconds = Math.max(1, await this.messages.secondsUntilLeaving(message.sender_id, limit.windowMinutes, n - limit.max, manager));
        if (!refused || resetSeconds > refused.resetSeconds) refused = { limit, resetSeconds };
      }
      if (refused) return { refused };
      const row = await this.messages.insert(message, manager);
      await appendEvent(manager, 'message.sent', {
        message_id: row.id,
        sender_id: row.sender_id,
        receiver_id: row.receiver_id,
        listing_id: row.listing_id,
        subject: row.subject,
        preview: row.content.slice(0, PREVIEW_LENGTH),
        created_at: row.created_at.toISOString(),
      });
      return { row };
    });
  }

  /** The actor's sent and received messages, newest first. */
  async list(actor: Actor | null): Promise<MessagesResponse> {
    const user = requireActor(actor);
    return { messages: await this.present(user.user_id, await this.messages.forUser(user.user_id, LIST_LIMIT)) };
  }

  /** How many received messages the actor has not read. */
  async unreadCount(actor: Actor | null): Promise<UnreadCountResponse> {
    const user = requireActor(actor);
    return { unread_count: await this.messages.unreadCount(user.user_id) };
  }

  /** Marks a received message read; only its receiver may, and doing it twice changes nothing. */
  async markRead(actor: Actor | null, id: string): Promise<MarkMessageReadResponse> {
    const user = requireActor(actor);
    const row = await this.messages.find(id);
    authorizeMarkRead(user, row);
    await this.messages.markRead(id);
    return { message: 'Message marked as read', unread_count: await this.messages.unreadCount(user.user_id) };
  }

  // The listings service answers 404 for a listing the sender cannot see; that error passes through as it is.
  private listing(actor: Actor, id: string): Promise<ListingDto> {
    return this.rpc.call(RPC.listings.get, { id }, actor);
  }

  private async present(actorId: string, rows: MessageRow[]): Promise<MessageDto[]> {
    const names = await publicProfiles(this.rpc, rows.flatMap((r) => [r.sender_id, r.receiver_id]));
    return rows.map((r) => toDto(r, actorId, (id) => names.get(id)?.username));
  }
}

/** A stored message as one of its two parties sees it; a party whose name is unknown is a deleted account. */
function toDto(r: MessageRow, actorId: string, username: (id: string) => string | undefined): MessageDto {
  const party = (id: string) => ({ id, username: username(id) ?? DELETED_USER });
  return {
    id: r.id,
    sender: party(r.sender_id),
    receiver: party(r.receiver_id),
    receiver_id: r.receiver_id,
    listing_id: r.listing_id,
    listing_title: r.listing_title,
    subject: r.subject,
    content: r.content,
    read: r.read_at !== null,
    created_at: r.created_at.toISOString(),
    direction: r.receiver_id === actorId ? 'received' : 'sent',
  };
}
