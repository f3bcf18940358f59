import { Injectable, Logger } from '@nestjs/common';
import { appendEvent, isUniqueViolation, conflict, forbidden, unauthorized, OutboxRelay, SettingsClient } from '@market/server-kit';
import type { AccountState, Actor, ClientInfo, LoginRequest, LoginResponse, RegisterRequest, RegisterResponse, SessionState, UserDto } from '@market/contracts';
import { UsersRepository } from '../users/users.repository';
import { presentUser } from '../users/user.presenter';
import { AccountTokensService } from '../tokens/account-tokens.service';
import { LoginAttempts } from './login-attempts';
import { accountStateOf, SessionStateStore } from '../sessions/session-state.store';
import { SessionsRepository } from '../sessions/sessions.repository';
import { EmailChangeService } from '../profile/email-change.service';
import { PasswordHasher } from './password-hasher';
import { TokenIssuer } from './token-issuer';

export const WRONG_CREDENTIALS = 'Incorrect username/email or password';
export const SUSPENDED = 'Your account has been suspended. Please contact support.';
export const SESSION_ENDED = 'Your session has ended. Please log in again.';

/** Maps the unique indexes on users to the 409 a person can act on. */
export function duplicateAccountError(error: unknown): Error {
  if (isUniqueViolation(error, 'users_username_lower_key')) return conflict('Username is already taken');
  if (isUniqueViolation(error, 'users_email_lower_key')) return conflict('An account with this email already exists');
  return error as Error;
}

/** Registration, login, the current user and the session state the gateway checks. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('AuthService');

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenIssuer,
    private readonly accountTokens: AccountTokensService,
    private readonly relay: OutboxRelay,
    private readonly settings: SettingsClient,
    private readonly sessionRows: SessionsRepository,
    private readonly sessions: SessionStateStore,
    private readonly emailChange: EmailChangeService,
    private readonly attempts: LoginAttempts,
  ) {}

  /** Creates an account (D13) with its user.registered event and a verification email, in one transaction. */
  async register(input: RegisterRequest): Promise<RegisterResponse> {
    if (!(await this.settings.get()).allow_registration) throw forbidden('Registration is currently closed');
    const passwordHash = await this.hasher.hash(input.password);
    try {
      const user = await this.users.transaction(async (manager) => {
        // An address left by an email change stays its account's to take back for 7 days (ADR 0034).
        await this.emailChange.assertAddressFree(input.email, null, manager);
        const created = await this.users.insert(
          { username: input.username, email: input.email, passwordHash, role: 'regular', ageConfirmedAt: new Date() },
          manager,
        );
        await appendEvent(manager, 'user.registered', {
          user_id: created.id,
          username: created.username,
          email: created.email,
          created_at: created.createdAt.toISOString(),
        });
        await this.accountTokens.requestVerification(manager, created);
        return created;
      });
      this.relay.kick();
      this.logger.log(`Registered user ${user.id}`);
      return { message: 'Registration successful! You can now log in.', user: presentUser(user) };
    } catch (error) {
      throw duplicateAccountError(error);
    }
  }

  /** Logs in by username or email, opening a session the token names; a failure never says which part was wrong. */
  async login(input: LoginRequest & { client?: ClientInfo }): Promise<LoginResponse> {
    const user = await this.users.findByLogin(input.login);
    // Counted per account before the password is checked: over the quota, no guess is even tried.
    await this.attempts.count(user?.id ?? null, input.login);
    const valid = await this.hasher.verify(user?.passwordHash ?? null, input.password);
    if (!user || !valid) throw unauthorized(WRONG_CREDENTIALS);
    if (user.status === 'suspended') throw forbidden(SUSPENDED);
    const session = await this.sessionRows.create({
      userId: user.id,
      kind: 'login',
      userAgent: input.client?.user_agent ?? null,
      address: input.client?.address ?? null,
      expiresAt: new Date(Date.now() + this.tokens.ttlSeconds * 1000),
    });
    // Only when absent: a suspension or reset that committed while the password was checked must not be overwritten.
    await this.sessions.publishIfAbsent(user);
    await this.sessions.publishSessions([session.id], true);
    return { access_token: this.tokens.issue(user, session.id), token_type: 'bearer', user: presentUser(user) };
  }

  /** The actor's own account; a token from before the latest version bump, or of an inactive account, is refused. */
  async me(actor: Actor): Promise<UserDto> {
    const user = await this.users.findProfile(actor.user_id);
    if (!user || user.status !== 'active' || (actor.token_version ?? 0) !== user.tokenVersion) throw unauthorized(SESSION_ENDED);
    return presentUser(user);
  }

  /**
   * An account's version, status and role, and whether one of its sessions stands: what every process checks a token
   * against when Redis does not know (ADR 0030). A missing account counts as deleted.
   */
  async sessionState(userId: string, sessionId?: string): Promise<SessionState> {
    const user = await this.users.findById(userId);
    const state: AccountState = user ? accountStateOf(user) : { token_version: -1, status: 'deleted', role: 'regular', email_verified: false };
    const live = user ? (sessionId ? await this.sessionRows.isLive(sessionId, userId) : true) : false;
    return { ...state, session_active: live, sealed: this.sessions.sealed(userId, state, sessionId ? { id: sessionId, live } : undefined) };
  }
}
