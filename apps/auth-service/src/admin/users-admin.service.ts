import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { appendEvent, badRequest, forbidden, notFound, OutboxRelay, requireAdmin } from '@market/server-kit';
import type { Actor, AdminUpdateUserRequest, ImpersonationResponse, UserDto } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import type { UserEntity } from '../users/user.entity';
import { presentUser } from '../users/user.presenter';
import { TokenIssuer } from '../auth/token-issuer';
import { PasswordHasher } from '../auth/password-hasher';
import { SessionStateStore } from '../sessions/session-state.store';

/** Admin-only account operations; every method re-checks that the actor is a real (not impersonated) admin. */
@Injectable()
export class UsersAdminService {
  private readonly logger = new Logger('UsersAdmin');

  constructor(
    private readonly users: UsersRepository,
    private readonly tokens: TokenIssuer,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStateStore,
    private readonly relay: OutboxRelay,
  ) {}

  private async target(id: string): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user || user.status === 'deleted') throw notFound('User not found');
    return user;
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

  /** Toggles seller verification, or suspends/activates; suspension ends every session (D6, D14). */
  async update(actor: Actor, id: string, input: AdminUpdateUserRequest): Promise<UserDto> {
    requireAdmin(actor);
    const user = await this.target(id);
    if (input.verified !== undefined) return presentUser(await this.users.update(id, { verified: input.verified }));
    if (user.role === 'admin') throw forbidden('Admin accounts cannot be suspended');
    if (input.status === user.status) return presentUser(user);
    const updated =
      input.status === 'suspended' ? await this.users.endSessions(id, { status: 'suspended' }) : await this.users.update(id, { status: 'active' });
    await this.sessions.publish(updated);
    this.logger.log(`User ${id} ${input.status === 'suspended' ? 'suspended' : 'activated'} by ${actor.user_id}`);
    return presentUser(updated);
  }

  /** Deletes an account (D17): personal data scrubbed, sessions ended, history kept; a user.deleted event follows. */
  async delete(actor: Actor, id: string): Promise<{ message: string }> {
    requireAdmin(actor);
    const user = await this.target(id);
    if (user.role === 'admin') throw forbidden('Admin accounts cannot be deleted');
    const scrubbed = `deleted-${user.id.slice(0, 8)}-${randomBytes(3).toString('hex')}`;
    const deleted = await this.users.transaction(async (manager) => {
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
      return updated;
    });
    this.relay.kick();
    await this.sessions.publish(deleted);
    return { message: 'User deleted' };
  }

  /** A one-hour token acting as a non-admin user (D14). */
  async impersonate(actor: Actor, id: string): Promise<ImpersonationResponse> {
    requireAdmin(actor);
    if (id === actor.user_id) throw badRequest('You cannot impersonate yourself');
    const [target, admin] = await Promise.all([this.target(id), this.target(actor.user_id)]);
    if (target.role === 'admin') throw forbidden('Admins cannot impersonate other admins');
    if (target.status !== 'active') throw badRequest('Only active users can be impersonated');
    return {
      impersonation_token: this.tokens.issueImpersonation(target, admin.id),
      target_user: presentUser(target),
      original_admin: presentUser(admin),
    };
  }
}
