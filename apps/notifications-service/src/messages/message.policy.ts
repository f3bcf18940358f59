import { MESSAGE_TEXTS, type Actor } from '@market/contracts';
import { AppError } from '@market/server-kit';
import type { MessageRow } from './messages.repository';

/** Who may send to whom (ADR 0069): anyone signed in, to another member; this is asked before the member is looked up. */
export function authorizeSendTo(sender: Actor, receiverId: string): void {
  if (receiverId === sender.user_id) throw new AppError('bad_request', 'You cannot send a message to yourself');
}

/** The receiver as auth-service knows them may be reached: they exist and are not suspended. */
export function authorizeReceiver<R extends { status: string }>(receiver: R | null): asserts receiver is R {
  if (!receiver) throw new AppError('not_found', 'Recipient not found');
  // A suspended member keeps the mail about their money, but nobody can reach them through the site meanwhile.
  if (receiver.status === 'suspended') throw new AppError('forbidden', MESSAGE_TEXTS.recipientUnavailable);
}

/**
 * Who may mark a message read: its receiver. Its sender learns why not (403); anyone else, that there is no such
 * message (404), as for a missing one: ids are not confirmed to strangers.
 */
export function authorizeMarkRead(actor: Actor, row: Pick<MessageRow, 'sender_id' | 'receiver_id'> | null): asserts row is Pick<MessageRow, 'sender_id' | 'receiver_id'> {
  if (!row || (row.receiver_id !== actor.user_id && row.sender_id !== actor.user_id)) throw new AppError('not_found', 'Message not found');
  if (row.receiver_id !== actor.user_id) throw new AppError('forbidden', 'Only the recipient can mark a message as read');
}
