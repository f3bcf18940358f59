import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, SettingsModule } from '@market/server-kit';
import { AUTH_DATABASE } from './auth.database';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { UsersRepository } from './users/users.repository';
import { AuthController } from './auth/auth.controller';
import { LoginAttempts } from './auth/login-attempts';
import { AuthService } from './auth/auth.service';
import { PasswordHasher } from './auth/password-hasher';
import { TokenIssuer } from './auth/token-issuer';
import { AdminAccount } from './auth/admin-account';
import { AccountTokensRepository } from './tokens/account-tokens.repository';
import { AccountTokensService } from './tokens/account-tokens.service';
import { AccountController } from './tokens/account.controller';
import { ProfileService } from './profile/profile.service';
import { SessionStateStore } from './sessions/session-state.store';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { EmailChangeService } from './profile/email-change.service';
import { UsersAdminService } from './admin/users-admin.service';
import { UsersAdminController } from './admin/users-admin.controller';
import { UserDirectoryController } from './directory/user-directory.controller';

/** The auth service: users, credentials and sessions, in the `auth` schema. */
export function authAppModule(config: AuthConfig): DynamicModule {
  return defineServiceModule(
    {
      service: 'auth-service',
      config,
      ...AUTH_DATABASE,
    },
    {
      imports: [SettingsModule],
      controllers: [AuthController, AccountController, UsersAdminController, UserDirectoryController],
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        UsersRepository,
        AccountTokensRepository,
        AuthService,
        AccountTokensService,
        ProfileService,
        EmailChangeService,
        UsersAdminService,
        SessionStateStore,
        SessionsRepository,
        SessionsService,
        PasswordHasher,
        TokenIssuer,
        AdminAccount,
        LoginAttempts,
      ],
    },
  );
}
