import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { usernameProblem } from '@market/domain';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { UsersRepository } from '../users/users.repository';
import { PasswordHasher } from './password-hasher';

// Replicas starting together take turns, so exactly one of them creates the first admin.
const FIRST_ADMIN_LOCK = "pg_advisory_xact_lock(hashtext('auth.first_admin'))";

/**
 * ADMIN_EMAIL and ADMIN_PASSWORD create the first admin, and only while no admin exists (ADR 0031). They never change
 * an existing account: a password changed through the API survives restarts, and an address someone registered with
 * is never taken over.
 */
@Injectable()
export class AdminAccount implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminAccount');

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = this.config;
    if (!email || !password) return;
    const outcome = await this.users.transaction(async (manager) => {
      await manager.query(`SELECT ${FIRST_ADMIN_LOCK}`);
      if (await this.adminExists(manager)) return 'admin exists';
      if (await this.users.findByEmail(email)) return 'email taken';
      const passwordHash = await this.hasher.hash(password);
      await this.users.insert(
        { username: await this.freeUsername(email), email, passwordHash, role: 'admin', ageConfirmedAt: new Date(), emailVerifiedAt: new Date() },
        manager,
      );
      return 'created';
    });
    if (outcome === 'created') this.logger.log(`Created the first admin account ${email}`);
    if (outcome === 'email taken') this.logger.warn(`No admin created: ${email} (ADMIN_EMAIL) belongs to a member account; choose another address`);
  }

  private async adminExists(manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query("SELECT 1 FROM users WHERE role = 'admin' AND status <> 'deleted' LIMIT 1");
    return rows.length > 0;
  }

  private async freeUsername(email: string): Promise<string> {
    const local = email.split('@')[0].replace(/[^A-Za-z0-9_-]/g, '').slice(0, 24);
    const base = usernameProblem(local) ? 'admin' : local;
    for (let n = 0; ; n += 1) {
      const candidate = n === 0 ? base : `${base}${n}`;
      if (!(await this.users.usernameTaken(candidate))) return candidate;
    }
  }
}
