import { createPublicKey, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Actor, Role } from '@market/contracts';
import { AccessTokenSigner } from '../identity/access-token';
import { accountStateKey, sessionKey } from '../identity/account-states';
import { parsePrivateKey } from '../identity/jwt-keys';
import { sealAccountState, sealSessionState } from '../identity/sealed-states';
import { testBusIdentity } from './test-env';

/**
 * A caller whose token every process of a test stack accepts without auth-service: signed with the stack's own key
 * (isolatedEnv's JWT_PRIVATE_KEY) and with its account and session state written to the stack's Redis namespace.
 */
export async function testCaller(env: Record<string, string>, who: { user_id?: string; role: Role; impersonator_id?: string; email_verified?: boolean }): Promise<Actor> {
  const privateKey = parsePrivateKey(env.JWT_PRIVATE_KEY);
  const signer = new AccessTokenSigner(privateKey, createPublicKey(privateKey));
  const userId = who.user_id ?? randomUUID();
  const sessionId = randomUUID();
  const redis = new Redis(env.REDIS_URL);
  // Signed with the stack's auth-service key, as auth-service stores them: no process believes anything else (ADR 0065).
  const auth = testBusIdentity(env, 'auth-service').signer;
  try {
    const prefix = env.REDIS_KEY_PREFIX ?? '';
    const writes = redis
      .multi()
      .set(accountStateKey(prefix, userId), sealAccountState(auth, userId, { token_version: 0, status: 'active', role: who.role, email_verified: who.email_verified ?? true }, 3600), 'EX', 3600)
      .set(sessionKey(prefix, sessionId), sealSessionState(auth, sessionId, true, 3600), 'EX', 3600);
    if (who.impersonator_id) {
      writes.set(accountStateKey(prefix, who.impersonator_id), sealAccountState(auth, who.impersonator_id, { token_version: 0, status: 'active', role: 'admin', email_verified: true }, 3600), 'EX', 3600);
    }
    await writes.exec();
  } finally {
    redis.disconnect();
  }
  const token = signer.sign({ sub: userId, sid: sessionId, ver: 0, ...(who.impersonator_id ? { act: { sub: who.impersonator_id } } : {}) }, 3600);
  return {
    user_id: userId,
    role: who.role,
    email_verified: who.email_verified ?? true,
    token_version: 0,
    session_id: sessionId,
    token,
    ...(who.impersonator_id ? { impersonator_id: who.impersonator_id } : {}),
  };
}

/** The caller of a token as RpcClient.call forwards it (only the token travels; the service derives the rest). */
export function callerWithToken(token: string): Actor {
  return { user_id: 'from-token', role: 'regular', token };
}
