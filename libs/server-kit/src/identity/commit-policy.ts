import type { Actor, PlatformSettings } from '@market/contracts';
import { commitRefusal, type CommitAct } from '@market/domain';
import { forbidden } from '../errors/app-error';
import { requireActor } from '../rpc/rpc-input';

/**
 * The caller of a bid, offer, buy-now or new listing, or a 403 saying what to do first (ADR 0037). The actor's state is
 * the account's current one (ADR 0030): a suspended or deleted account never gets this far (its token is refused), and
 * email_verified is read from the same state, so a verification counts at once.
 */
export function requireMayCommit(actor: Actor | null | undefined, act: CommitAct, settings: Pick<PlatformSettings, 'require_verified_email'>): Actor {
  const caller = requireActor(actor);
  const refusal = commitRefusal({ status: 'active', email_verified: caller.email_verified }, act, settings.require_verified_email ?? true);
  if (refusal) throw forbidden(refusal);
  return caller;
}
