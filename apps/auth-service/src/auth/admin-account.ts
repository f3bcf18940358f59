import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { usernameProblem } from '@market/domain';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { UsersRepository } from '../users/users.repository';
import { PasswordHasher } from './password-hasher';

/** When ADMIN_EMAIL and ADMIN_PASSWORD are set, makes sure an active admin with them exists after start. */
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
    const existing = await this.users.findByEmail(email);
    if (!existing) {
      await this.users.insert({
        username: await this.freeUsername(email),
        email,
        passwordHash: await this.hasher.hash(password),
        role: 'admin',
        ageConfirmedAt: new Date(),
        emailVerifiedAt: new Date(),
      });
      this.logger.log(`Created admin account ${email}`);
      return;
    }
    const passwordMatches = await this.hasher.verify(existing.passwordHash, password);
    if (existing.role !== 'admin' || existing.status !== 'active' || !passwordMatches) {
      await this.users.update(existing.id, {
        role: 'admin',
        status: 'active',
        ...(passwordMatches ? {} : { passwordHash: await this.hasher.hash(password) }),
      });
      this.logger.log(`Updated admin account ${email}`);
    }
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
