import { canonicalIdentifier } from '@market/domain';
import { Injectable } from '@nestjs/common';
import { AppError, forbidden, OutboxRelay, unauthorized, badRequest } from '@market/server-kit';
import type { Actor, ChangePasswordRequest, ChangePasswordResponse, UpdateProfile, UserDto } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import type { UserEntity } from '../users/user.entity';
import { presentUser } from '../users/user.presenter';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenIssuer } from '../auth/token-issuer';
import { AccountTokensRepository } from '../tokens/account-tokens.repository';
import { SessionStateStore } from '../sessions/session-state.store';
import { SessionsRepository } from '../sessions/sessions.repository';
import { duplicateAccountError, SESSION_ENDED } from '../auth/auth.service';
import { EmailChangeService } from './email-change.service';

/** True when two addresses are different accounts' keys (compared as logins are). */
function emailDiffers(a: string, b: string): boolean {
  return canonicalIdentifier(a) !== canonicalIdentifier(b);
}

/** The 422 of an email change without the current password. */
function passwordMissing(): AppError {
  return new AppError('validation_failed', [
    { loc: ['body', 'current_password'], msg: 'Enter your current password to change your email', type: 'missing' },
  ]);
}

/** The profile tab: personal details and the password. */
@Injectable()
export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly emailChange: EmailChangeService,
    private readonly hasher: PasswordHasher,
    private readonly issuer: TokenIssuer,
    private readonly tokens: AccountTokensRepository,
    private readonly sessions: SessionStateStore,
    private readonly sessionRows: SessionsRepository,
    private readonly relay: OutboxRelay,
  ) {}

  /**
   * Saves the profile. Changing the email needs the current password; the new address is unverified until its link is
   * opened, every other session ends and the old address gets a link that undoes the change (ADR 0034).
   */
  async updateProfile(actor: Actor, input: UpdateProfile): Promise<UserDto> {
    const { current_password: password, ...profile } = input;
    const current = await this.users.findById(actor.user_id);
    if (!current || current.status !== 'active') throw unauthorized(SESSION_ENDED);
    const passwordChecked = emailDiffers(current.email, profile.email) && (await this.checkEmailChange(actor, current, password));
    try {
      const { user, ended } = await this.users.transaction(async (manager) => {
        const locked = await this.users.findForUpdate(actor.user_id, manager);
        if (!locked || locked.status !== 'active') throw unauthorized(SESSION_ENDED);
        const emailChanged = emailDiffers(locked.email, profile.email);
        // The email changed between the check and the lock: the password was checked against another change.
        if (emailChanged && !passwordChecked) throw passwordMissing();
        const updated = await this.users.update(locked.id, { ...profile, ...(emailChanged ? { emailVerifiedAt: null } : {}) }, manager);
        const ended = emailChanged ? await this.emailChange.recordChange(manager, locked, updated, actor.session_id ?? null) : [];
        return { user: updated, ended };
      });
      await this.sessions.publishSessions(ended, false);
      // A new email is unverified until confirmed: every process must see it at once (ADR 0030).
      if (user.emailVerifiedAt === null) await this.sessions.publish(user);
      this.relay.kick();
      return presentUser(user);
    } catch (error) {
      throw duplicateAccountError(error);
    }
  }

  // The refusals of an email change, in order (ADR 0009, ADR 0034); true once the password is right.
  private async checkEmailChange(actor: Actor, user: UserEntity, password: string | undefined): Promise<true> {
    // With the email, an impersonator could take the account over through a password reset (D14).
    if (actor.impersonator_id) throw forbidden('The email cannot be changed while impersonating a user');
    if (!password) throw passwordMissing();
    if (!(await this.hasher.verify(user.passwordHash, password))) throw badRequest('Current password is incorrect');
    return true;
  }

  /** Changes the password after checking the current one; every other session ends, this one gets a new token. */
  async changePassword(actor: Actor, input: ChangePasswordRequest): Promise<ChangePasswordResponse> {
    if (actor.impersonator_id) throw forbidden('Passwords cannot be changed while impersonating a user');
    const user = await this.users.findById(actor.user_id);
    if (!user || user.status !== 'active') throw unauthorized(SESSION_ENDED);
    if (!(await this.hasher.verify(user.passwordHash, input.current_password))) throw badRequest('Current password is incorrect');
    const passwordHash = await this.hasher.hash(input.new_password);
    const updated = await this.users.transaction(async (manager) => {
      await this.tokens.voidUnused(manager, user.id, 'reset_password');
      return this.users.endSessions(user.id, { passwordHash }, manager);
    });
    // Every session ended with the version bump; this device keeps going in a new one.
    const current = actor.session_id ? await this.sessionRows.find(actor.session_id) : null;
    const session = await this.sessionRows.create({
      userId: updated.id,
      kind: 'login',
      userAgent: current?.user_agent ?? null,
      address: current?.address ?? null,
      expiresAt: new Date(Date.now() + this.issuer.ttlSeconds * 1000),
    });
    await this.sessionRows.revokeAll(updated.id, session.id);
    await this.sessions.publish(updated);
    await this.sessions.publishSessions([session.id], true);
    return { message: 'Password changed successfully. Other sessions have been signed out.', access_token: this.issuer.issue(updated, session.id) };
  }
}
