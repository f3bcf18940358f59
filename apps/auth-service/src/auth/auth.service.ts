import { Injectable, Logger } from '@nestjs/common';
import { isUniqueViolation, conflict, forbidden, unauthorized, OutboxRelay } from '@market/server-kit';
import type { Actor, LoginRequest, LoginResponse, RegisterRequest, RegisterResponse, UserDto } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import { presentUser } from '../users/user.presenter';
import { PasswordHasher } from './password-hasher';
import { TokenIssuer } from './token-issuer';

export const WRONG_CREDENTIALS = 'Incorrect username/email or password';
export const SUSPENDED = 'Your account has been suspended. Please contact support.';

/** Registration, login and the current user. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('AuthService');

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenIssuer,
    private readonly relay: OutboxRelay,
  ) {}

  /** Creates an account (D13); duplicate username or email is a 409 that says which. */
  async register(input: RegisterRequest): Promise<RegisterResponse> {
    const passwordHash = await this.hasher.hash(input.password);
    try {
      const user = await this.users.createRegistered({
        username: input.username,
        email: input.email,
        passwordHash,
        role: 'regular',
        ageConfirmedAt: new Date(),
      });
      this.relay.kick();
      this.logger.log(`Registered user ${user.id}`);
      return { message: 'Registration successful! You can now log in.', user: presentUser(user) };
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_lower_key')) throw conflict('Username is already taken');
      if (isUniqueViolation(error, 'users_email_lower_key')) throw conflict('An account with this email already exists');
      throw error;
    }
  }

  /** Logs in by username or email; a failure never says which part was wrong. */
  async login(input: LoginRequest): Promise<LoginResponse> {
    const user = await this.users.findByLogin(input.login);
    const valid = await this.hasher.verify(user?.passwordHash ?? null, input.password);
    if (!user || !valid) throw unauthorized(WRONG_CREDENTIALS);
    if (user.status === 'suspended') throw forbidden(SUSPENDED);
    return { access_token: this.tokens.issue(user), token_type: 'bearer', user: presentUser(user) };
  }

  /** The actor's own account; a token from before the latest version bump, or of a suspended account, is refused. */
  async me(actor: Actor): Promise<UserDto> {
    const user = await this.users.findById(actor.user_id);
    if (!user || user.status !== 'active' || (actor.token_version ?? 0) !== user.tokenVersion) {
      throw unauthorized('Your session has ended. Please log in again.');
    }
    return presentUser(user);
  }
}
