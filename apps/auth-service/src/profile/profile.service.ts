import { canonicalIdentifier } from '@market/domain';
import { Injectable } from '@nestjs/common';
import { forbidden, OutboxRelay, unauthorized, badRequest } from '@market/server-kit';
import type { Actor, ChangePasswordRequest, ChangePasswordResponse, UpdateProfile, UserDto } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import { presentUser } from '../users/user.presenter';
import { AccountTokensService } from '../tokens/account-tokens.service';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenIssuer } from '../auth/token-issuer';
import { AccountTokensRepository } from '../tokens/account-tokens.repository';
import { SessionStateStore } from '../sessions/session-state.store';
import { SessionsRepository } from '../sessions/sessions.repository';
import { duplicateAccountError, SESSION_ENDED } from '../auth/auth.service';

/** The profile tab: personal details and the password. */
@Injectable()
export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly accountTokens: AccountTokensService,
    private readonly hasher: PasswordHasher,
    private readonly issuer: TokenIssuer,
    private readonly tokens: AccountTokensRepository,
    private readonly sessions: SessionStateStore,
    private readonly sessionRows: SessionsRepository,
    private readonly relay: OutboxRelay,
  ) {}

  /** Saves the profile; a changed email is unverified until its new link is opened. */
  async updateProfile(actor: Actor, profile: UpdateProfile): Promise<UserDto> {
    try {
      const user = await this.users.transaction(async (manager) => {
        const current = await this.users.findById(actor.user_id, manager);
        if (!current || current.status !== 'active') throw unauthorized(SESSION_ENDED);
        const emailChanged = canonicalIdentifier(current.email) !== canonicalIdentifier(profile.email);
        // With the email, an impersonator could take the account over through a password reset (D14).
        if (emailChanged && actor.impersonator_id) throw forbidden('The email cannot be changed while impersonating a user');
        const updated = await this.users.update(
          current.id,
          { ...profile, ...(emailChanged ? { emailVerifiedAt: null } : {}) },
          manager,
        );
        if (emailChanged) {
          await this.accountTokens.requestVerification(manager, updated);
          await this.tokens.voidUnused(manager, updated.id, 'reset_password');
        }
        return updated;
      });
      this.relay.kick();
      return presentUser(user);
    } catch (error) {
      throw duplicateAccountError(error);
    }
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
