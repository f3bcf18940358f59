import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule } from '@market/server-kit';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { UserEntity } from './users/user.entity';
import { UsersRepository } from './users/users.repository';
import { CreateUsers1763800100000 } from './migrations/1763800100000-create-users';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { PasswordHasher } from './auth/password-hasher';
import { TokenIssuer } from './auth/token-issuer';
import { AdminAccount } from './auth/admin-account';

/** The auth service: users, credentials and sessions, in the `auth` schema. */
export function authAppModule(config: AuthConfig): DynamicModule {
  return defineServiceModule(
    { service: 'auth-service', schema: 'auth', config, entities: [UserEntity], migrations: [CreateUsers1763800100000] },
    {
      controllers: [AuthController],
      providers: [{ provide: AUTH_CONFIG, useValue: config }, UsersRepository, AuthService, PasswordHasher, TokenIssuer, AdminAccount],
    },
  );
}
