import { z } from 'zod';
import { id, text, time } from './fields.schemas';

const accountToken = z.object({ user_id: id, username: text, email: text, token: z.string().min(1), expires_at: time });

/** Account events, written by auth-service: registrations, one-time links, deletions and suspensions. */
export const ACCOUNT_EVENTS = {
  'user.registered': z.object({ user_id: id, username: text, email: text, created_at: time }),
  /** Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message. */
  'user.verification_requested': accountToken,
  /** Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message. */
  'user.password_reset_requested': accountToken,
  /**
   * An account's email changed (ADR 0034): the old address is told, with a one-time link that undoes the change.
   * Carries a one-time token: the relay strips it from the outbox, the consumer deletes the message.
   */
  'user.email_changed': z.object({ user_id: id, username: text, old_email: text, new_email: text, token: z.string().min(1), expires_at: time }),
  'user.deleted': z.object({ user_id: id, deleted_by: id }),
  /**
   * An admin suspended an account (ADR 0038): bidding rejects the member's pending bids and reprices those auctions,
   * listings pauses the member's live listings. `at` orders it against user.reactivated (separate consumers).
   */
  'user.suspended': z.object({ user_id: id, suspended_by: id, at: time }),
  /** An admin lifted a suspension (ADR 0038): listings restores exactly the listings moderation paused. */
  'user.reactivated': z.object({ user_id: id, reactivated_by: id, at: time }),
};
