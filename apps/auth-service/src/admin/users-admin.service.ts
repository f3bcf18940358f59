import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { auditSnapshot } from '@market/domain';
import { appendEvent, notFound, OutboxRelay, requireAdmin, unauthorized } from '@market/server-kit';
import { authorizeImpersonating, authorizeUserAdmin } from './user-admin.policy';
import { adminActed, type Actor, type AdminActAction, type AdminUpdateUserRequest, type ImpersonationResponse, type UserDto } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import type { UserEntity } from '../users/user.entity';
import { presentUser } from '../users/user.presenter';
import { IMPERSONATION_TTL_SECONDS, TokenIssuer } from '../auth/token-issuer';
import { PasswordHasher } from '../auth/password-hasher';
import { SessionStateStore } from '../sessions/session-state.store';
import { SessionsRepository } from '../sessions/sessions.repository';

/** Admin-only account operations; every method re-checks that the actor is a real (not impersonated) admin. */
@Injectable()
export class UsersAdminService {
  private readonly logger = new Logger('UsersAdmin');

  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokenIssuer,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStateStore,
    private readonly sessionRows: SessionsRepository,
    private readonly relay: OutboxRelay,
  ) {}

  private async target(id: string, manager?: EntityManager): Promise<UserEntity> {
    const user = manager ? await this.users.findForUpdate(id, manager) : await this.users.findById(id);
    if (!user || user.status === 'deleted') throw notFound('User not found');
    return user;
  }

  /** Records the act in the change's transaction (ADR 0032): only the changed field, never personal data (D17). */
  private async audit(manager: EntityManager, actor: Actor, action: AdminActAction, before: UserEntity, after: UserEntity, field: 'status' | 'verified') {
    const act = { action, target_type: 'user' as const, target_id: before.id, before: auditSnapshot(before, [field]), after: auditSnapshot(after, [field]) };
    await appendEvent(manager, 'admin.acted', adminActed(actor, act));
  }

  async list(actor: Actor, limit: number): Promise<{ users: UserDto[]; total: number }> {
    requireAdmin(actor);
    const { users, total } = await this.users.list(limit);
    return { users: users.map(presentUser), total };
  }

  async stats(actor: Actor): Promise<{ total_users: number }> {
    requireAdmin(actor);
    return { total_users: await this.users.countLive() };
  }

  /**
   * Toggles seller verification, confirms an email (ADR 0037), or suspends/activates; suspension ends every session
   * (D6, D14). A change is audited in its transaction; asking for what already is changes and records nothing.
   */
  async update(actor: Actor, id: string, input: AdminUpdateUserRequest): Promise<UserDto> {
    requireAdmin(actor);
    const { user, statusChanged } = await this.users.transaction(async (manager) => {
      const current = await this.target(id, manager);
      if (input.email_verified) {
        // Support confirmed the address another way (ADR 0037): the member may now commit, as after their own link.
        if (current.emailVerifiedAt) return { user: current, statusChanged: false };
        const updated = await this.users.update(id, { emailVerifiedAt: new Date() }, manager);
        const act = { action: 'user.email_verified' as const, target_type: 'user' as const, target_id: id, before: { email_verified: false }, after: { email_verified: true } };
        await appendEvent(manager, 'admin.acted', adminActed(actor, act));
        return { user: updated, statusChanged: true };
      }
      if (input.verified !== undefined) {
        if (input.verified === current.verified) return { user: current, statusChanged: false };
        const updated = await this.users.update(id, { verified: input.verified }, manager);
        await this.audit(manager, actor, input.verified ? 'user.verified' : 'user.unverified', current, updated, 'verified');
        return { user: updated, statusChanged: false };
      }
      authorizeUserAdmin(actor, current, 'change_status');
      if (input.status === current.status) return { user: current, statusChanged: false };
      const suspend = input.status === 'suspended';
      const updated = suspend ? await this.users.endSessions(id, { status: 'suspended' }, manager) : await this.users.update(id, { status: 'active' }, manager);
      await this.audit(manager, actor, suspend ? 'user.suspended' : 'user.activated', current, updated, 'status');
      // Every service that holds the member's bids or listings follows the change from this event (ADR 0038); the
      // database clock read under the row lock orders a suspension and a reactivation whichever replica made them.
      const at = (await this.users.clock(manager)).toISOString();
      if (suspend) await appendEvent(manager, 'user.suspended', { user_id: id, suspended_by: actor.user_id, at });
      else await appendEvent(manager, 'user.reactivated', { user_id: id, reactivated_by: actor.user_id, at });
      return { user: updated, statusChanged: true };
    });
    this.relay.kick();
    if (statusChanged) {
      await this.sessions.publish(user);
      this.logger.log(input.email_verified ? `User ${id} email confirmed by ${actor.user_id}` : `User ${id} ${user.status === 'suspended' ? 'suspended' : 'activated'} by ${actor.user_id}`);
    }
    return presentUser(user);
  }

  /** Deletes an account (D17): personal data scrubbed, sessions ended, history kept; a user.deleted event follows. */
  async delete(actor: Actor, id: string): Promise<{ message: string }> {
    requireAdmin(actor);
    const scrubbed = `deleted-${id.slice(0, 8)}-${randomBytes(3).toString('hex')}`;
    const deleted = await this.users.transaction(async (manager) => {
      const user = await this.target(id, manager);
      authorizeUserAdmin(actor, user, 'delete');
      const updated = await this.users.endSessions(
        id,
        {
          status: 'deleted',
          deletedAt: new Date(),
          username: scrubbed,
          email: `${scrubbed}@deleted.invalid`,
          passwordHash: await this.hasher.hash(randomBytes(24).toString('hex')),
          name: null,
          bio: null,
          website: null,
          phone: null,
          location: null,
          verified: false,
        },
        manager,
      );
      await appendEvent(manager, 'user.deleted', { user_id: id, deleted_by: actor.user_id });
      await this.audit(manager, actor, 'user.deleted', user, updated, 'status');
      return updated;
    });
    this.relay.kick();
    await this.sessions.publish(deleted);
    return { message: 'User deleted' };
  }

  /** A one-hour token acting as a non-admin user (D14). */
  async impersonate(actor: Actor, id: string): Promise<ImpersonationResponse> {
    authorizeImpersonating(actor, id);
    const [target, admin] = await Promise.all([this.target(id), this.target(actor.user_id)]);
    authorizeUserAdmin(actor, target, 'impersonate');
    // Its own session (ADR 0030): stopping the impersonation, or the admin logging out everywhere, ends the token at
    // once. Recorded as the admin's act in the same transaction (ADR 0032), whoever asked (the gateway or not).
    // It ends when the admin's session that started it ends, and never outlives it (ADR 0065): the admin's session is
    // held while this one is made, so a logout at the same moment ends it too.
    const adminSession = actor.session_id;
    if (!adminSession) throw unauthorized('Your session has ended. Please log in again.');
    const session = await this.users.transaction(async (manager) => {
      const adminSessionEnds = await this.sessionRows.liveUntil(adminSession, admin.id, manager);
      if (!adminSessionEnds) throw unauthorized('Your session has ended. Please log in again.');
      const expiresAt = new Date(Math.min(Date.now() + IMPERSONATION_TTL_SECONDS * 1000, adminSessionEnds.getTime()));
      const created = await this.sessionRows.create(
        { userId: target.id, kind: 'impersonation', impersonatorId: admin.id, impersonatorSessionId: adminSession, expiresAt },
        manager,
      );
      await appendEvent(
        manager,
        'admin.acted',
        adminActed(actor, { action: 'user.impersonated', target_type: 'user', target_id: target.id, before: null, after: { session: created.id } }),
      );
      return created;
    });
    this.relay.kick();
    await this.sessions.publishIfAbsent(target);
    await this.sessions.publishSessions([session.id], true);
    return {
      impersonation_token: this.tokens.issueImpersonation(target, admin, session.id),
      target_user: presentUser(target),
      original_admin: presentUser(admin),
    };
  }
}
