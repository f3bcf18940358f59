import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, SettingsModule } from '@market/server-kit';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { UserEntity } from './users/user.entity';
import { UsersRepository } from './users/users.repository';
import { CreateUsers1763800100000 } from './migrations/1763800100000-create-users';
import { CreateAccountTokens1763800300000 } from './migrations/1763800300000-create-account-tokens';
import { AuthController } from './auth/auth.controller';
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
import { CreateSessions1764100000000 } from './migrations/1764100000000-create-sessions';
import { UndoEmailChangeTokens1764300000000 } from './migrations/1764300000000-undo-email-change-tokens';
import { EmailChangeService } from './profile/email-change.service';
import { UsersAdminService } from './admin/users-admin.service';
import { UsersAdminController } from './admin/users-admin.controller';
import { UserDirectoryController } from './directory/user-directory.controller';

/** The auth service: users, credentials and sessions, in the `auth` schema. */
export function authAppModule(config: AuthConfig): DynamicModule {
  return defineServiceModule(
    {
      service: 'auth-service',
      schema: 'auth',
      config,
      entities: [UserEntity],
      migrations: [CreateUsers1763800100000, CreateAccountTokens1763800300000, CreateSessions1764100000000, UndoEmailChangeTokens1764300000000],
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
      ],
    },
  );
}
