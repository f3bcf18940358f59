import type { ServiceDatabase } from '@market/server-kit';
import { UserEntity } from './users/user.entity';
import { CreateUsers1763800100000 } from './migrations/1763800100000-create-users';
import { CreateAccountTokens1763800300000 } from './migrations/1763800300000-create-account-tokens';
import { CreateSessions1764100000000 } from './migrations/1764100000000-create-sessions';
import { UndoEmailChangeTokens1764300000000 } from './migrations/1764300000000-undo-email-change-tokens';
import { ImpersonatorSessions1764900000000 } from './migrations/1764900000000-impersonator-sessions';

/** The `auth` schema: what the auth-service and its migrate step (ADR 0053) open. */
export const AUTH_DATABASE: ServiceDatabase = {
  schema: 'auth',
  entities: [UserEntity],
  migrations: [CreateUsers1763800100000, CreateAccountTokens1763800300000, CreateSessions1764100000000, UndoEmailChangeTokens1764300000000, ImpersonatorSessions1764900000000],
};
