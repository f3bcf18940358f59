import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { appendEvent, badRequest, conflict, isUniqueViolation } from '@market/server-kit';
import type { MessageResponse } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import type { UserEntity } from '../users/user.entity';
import { AccountTokensRepository } from '../tokens/account-tokens.repository';
import { AccountTokensService } from '../tokens/account-tokens.service';
import { PasswordHasher } from '../auth/password-hasher';
import { SessionStateStore } from '../sessions/session-state.store';
import { SessionsRepository } from '../sessions/sessions.repository';

/** How long the old address may undo an email change (ADR 0034). */
export const UNDO_EMAIL_CHANGE_TTL_MS = 7 * 24 * 3600 * 1000;
export const INVALID_UNDO_LINK = 'Invalid or expired undo link';
export const EMAIL_TAKEN = 'An account with this email already exists';
export const EMAIL_RESTORED =
  'Your email address has been restored and every session of your account has been logged out. ' +
  'Your password no longer works: choose a new one with "Forgot password".';

/** Email changes and their undo (ADR 0034): the old address is told, and may take the account back for 7 days. */
@Injectable()
export class EmailChangeService {
  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: AccountTokensRepository,
    private readonly accountTokens: AccountTokensService,
    private readonly sessionRows: SessionsRepository,
    private readonly sessions: SessionStateStore,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Refuses an address another account's pending undo link may still restore (so nobody can block the undo). */
  async assertAddressFree(email: string, userId: string | null, manager?: EntityManager): Promise<void> {
    if (await this.tokens.undoPendingFor(email, userId, manager)) throw conflict(EMAIL_TAKEN);
  }

  /**
   * Inside the change's transaction: verification for the new address, pending resets voided, the undo link and its
   * notice to the old address, and every session but `keepSessionId` ended. Returns the ended session ids, which the
   * caller publishes once the transaction has committed.
   */
  async recordChange(manager: EntityManager, before: Pick<UserEntity, 'email'>, after: UserEntity, keepSessionId: string | null): Promise<string[]> {
    await this.assertAddressFree(after.email, after.id, manager);
    await this.accountTokens.requestVerification(manager, after);
    await this.tokens.voidUnused(manager, after.id, 'reset_password');
    // A newer change keeps earlier undo links alive: an attacker cannot bury the owner's link under another change.
    const undo = await this.tokens.issue(manager, {
      userId: after.id,
      purpose: 'undo_email_change',
      email: before.email,
      ttlMs: UNDO_EMAIL_CHANGE_TTL_MS,
      keepEarlier: true,
    });
    await appendEvent(manager, 'user.email_changed', {
      user_id: after.id,
      username: after.username,
      old_email: before.email,
      new_email: after.email,
      token: undo.token,
      expires_at: undo.expiresAt.toISOString(),
    });
    return this.sessionRows.revokeAll(after.id, keepSessionId, manager);
  }

  /**
   * Restores the address the link was sent to, verified; ends every session, retires the password and voids pending
   * links (verification, reset, and the undo links of later changes; earlier ones stay, ADR 0034).
   */
  async undo(token: string): Promise<MessageResponse> {
    let restored: { user: UserEntity; ended: string[] };
    try {
      restored = await this.tokens.transaction(async (manager) => {
        const valid = await this.tokens.consume(manager, token, 'undo_email_change');
        if (!valid) throw badRequest(INVALID_UNDO_LINK);
        const owner = await this.users.findForUpdate(valid.user_id, manager);
        if (!owner || owner.status === 'deleted') throw badRequest(INVALID_UNDO_LINK);
        const holder = await this.users.findByEmail(valid.email, manager);
        // Thrown inside the transaction, so the token is not spent: the address may come free again.
        if (holder && holder.id !== owner.id) throw takenError(valid.email);
        // Whoever made the change knew the password: it must not let them back in.
        const retired = await this.hasher.hash(randomBytes(32).toString('base64url'));
        const user = await this.users.endSessions(owner.id, { email: valid.email, emailVerifiedAt: new Date(), passwordHash: retired }, manager);
        const ended = await this.sessionRows.revokeAll(owner.id, null, manager);
        await this.tokens.voidUnused(manager, owner.id, 'verify_email');
        await this.tokens.voidUnused(manager, owner.id, 'reset_password');
        await this.tokens.voidUndoLinksAfter(manager, owner.id, valid.created_at);
        return { user, ended };
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_lower_key')) throw takenError(null);
      throw error;
    }
    await this.sessions.publish(restored.user);
    await this.sessions.publishSessions(restored.ended, false);
    return { message: EMAIL_RESTORED };
  }
}

function takenError(email: string | null) {
  return conflict(`${email ?? 'That address'} now belongs to another account, so this change cannot be undone. Please contact support.`);
}
