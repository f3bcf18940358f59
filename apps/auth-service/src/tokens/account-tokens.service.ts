import { canonicalIdentifier } from '@market/domain';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { appendEvent, badRequest, OutboxRelay } from '@market/server-kit';
import { FORGOT_PASSWORD_MESSAGE, type Actor, type MessageResponse, type ResetPasswordRequest } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import type { UserEntity } from '../users/user.entity';
import { PasswordHasher } from '../auth/password-hasher';
import { SessionStateStore } from '../sessions/session-state.store';
import { AccountTokensRepository, type TokenPurpose } from './account-tokens.repository';

export const VERIFY_TTL_MS = 48 * 3600 * 1000;
export const RESET_TTL_MS = 3600 * 1000;
// Forgot-password answers no sooner than this, so an existing account cannot be told apart by timing.
const FORGOT_MIN_MS = 400;

/** Email verification and password reset (D15): random single-use tokens, stored hashed, that expire. */
@Injectable()
export class AccountTokensService {
  private readonly logger = new Logger('AccountTokens');

  constructor(
    private readonly tokens: AccountTokensRepository,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStateStore,
    private readonly relay: OutboxRelay,
  ) {}

  /** Issues a verification token and its email event inside the caller's transaction. */
  requestVerification(manager: EntityManager, user: Pick<UserEntity, 'id' | 'username' | 'email'>): Promise<void> {
    return this.issueAndAnnounce(manager, user, 'verify_email');
  }

  // The token and the event that emails it commit together (ADR 0008).
  private async issueAndAnnounce(manager: EntityManager, user: Pick<UserEntity, 'id' | 'username' | 'email'>, purpose: TokenPurpose): Promise<void> {
    const verify = purpose === 'verify_email';
    const issued = await this.tokens.issue(manager, { userId: user.id, purpose, email: user.email, ttlMs: verify ? VERIFY_TTL_MS : RESET_TTL_MS });
    await appendEvent(manager, verify ? 'user.verification_requested' : 'user.password_reset_requested', {
      user_id: user.id,
      username: user.username,
      email: user.email,
      token: issued.token,
      expires_at: issued.expiresAt.toISOString(),
    });
  }

  /** Marks the email verified when the token is valid and still matches the account's email. */
  async verifyEmail(token: string): Promise<MessageResponse> {
    const verified = await this.tokens.transaction(async (manager) => {
      const valid = await this.tokens.consume(manager, token, 'verify_email');
      if (!valid) return null;
      const user = await this.users.findById(valid.user_id, manager);
      if (!user || user.status === 'deleted' || canonicalIdentifier(user.email) !== canonicalIdentifier(valid.email)) return null;
      return user.emailVerifiedAt ? user : await this.users.update(user.id, { emailVerifiedAt: new Date() }, manager);
    });
    if (!verified) throw badRequest('Invalid or expired verification link');
    // Every process learns at once that this account may now bid, buy and sell (ADR 0030).
    await this.sessions.publish(verified);
    return { message: 'Email verified successfully! You can now log in.' };
  }

  /** Sends a new verification link to the actor's current email. */
  async resendVerification(actor: Actor): Promise<MessageResponse> {
    await this.users.transaction(async (manager) => {
      const user = await this.users.findById(actor.user_id, manager);
      if (!user || user.status !== 'active') throw badRequest('Account not found');
      if (user.emailVerifiedAt) throw badRequest('Your email is already verified');
      await this.requestVerification(manager, user);
    });
    this.relay.kick();
    return { message: `Verification email sent to your address` };
  }

  /** Same answer, in about the same time, whether or not the account exists. */
  async forgotPassword(email: string): Promise<MessageResponse> {
    const started = Date.now();
    try {
      const user = await this.users.findByEmail(email);
      if (user && user.status === 'active') {
        await this.tokens.transaction((manager) => this.issueAndAnnounce(manager, user, 'reset_password'));
        this.relay.kick();
      }
    } catch (error) {
      // The caller must not learn anything from a failure either; the log keeps it.
      this.logger.error(error instanceof Error ? error : String(error));
    }
    const wait = FORGOT_MIN_MS - (Date.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return { message: FORGOT_PASSWORD_MESSAGE };
  }

  /** Sets a new password with a valid reset token; every session ends, nobody is logged in. */
  async resetPassword(input: ResetPasswordRequest): Promise<MessageResponse> {
    const passwordHash = await this.hasher.hash(input.new_password);
    const user = await this.tokens.transaction(async (manager) => {
      const valid = await this.tokens.consume(manager, input.token, 'reset_password');
      if (!valid) return null;
      const owner = await this.users.findById(valid.user_id, manager);
      // A link sent to an address the account no longer uses must not reset it.
      if (!owner || owner.status !== 'active' || canonicalIdentifier(owner.email) !== canonicalIdentifier(valid.email)) return null;
      return this.users.endSessions(owner.id, { passwordHash }, manager);
    });
    if (!user) throw badRequest('Invalid or expired reset link');
    await this.sessions.publish(user);
    return { message: 'Your password has been reset. Please log in with your new password.' };
  }
}
