import { randomBytes } from 'node:crypto';
import type { RegisterRequest } from '@market/contracts';

/** A valid, unique registration; override any field a test cares about. */
export function buildUser(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  const tag = randomBytes(4).toString('hex');
  return {
    username: `user_${tag}`,
    email: `user_${tag}@example.com`,
    password: `pass-${tag}-phrase`,
    age_confirmed: true,
    ...overrides,
  };
}
