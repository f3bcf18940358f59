import type { PublicFees, UserDto } from '@market/contracts';
import { commitRefusal, type CommitAct } from '@market/domain';

/**
 * Why the signed-in member cannot bid, offer, buy or list yet, or null (ADR 0037): the server's own rule, read before
 * they try. Only an email known to be unverified counts here (the server decides the rest); until the public settings
 * arrive, the platform's default (required) is assumed.
 */
export function commitRefusalFor(user: Pick<UserDto, 'email_verified'> | null, act: CommitAct, fees: PublicFees | undefined): string | null {
  if (!user || user.email_verified !== false) return null;
  return commitRefusal({ email_verified: false }, act, fees?.verified_email_required ?? true);
}
