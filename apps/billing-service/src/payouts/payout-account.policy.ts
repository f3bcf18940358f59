import type { Actor } from '@market/contracts';
import { forbidden, notFound } from '@market/server-kit';

/**
 * Who may set up where a seller is paid (ADR 0069): the seller in their own session only. Where a seller is paid is
 * theirs to say, as a password is, so an admin acting as them may not (D14).
 */
export function authorizePayoutSetup(actor: Actor): void {
  if (actor.impersonator_id) throw forbidden('A payout account cannot be set up while impersonating a user');
}

/** An onboarding link is its member's: anyone else finds none (404, `detail`), then the setup rule above applies. */
export function authorizeOnboardingLink<L extends { user_id: string }>(actor: Actor, link: L | null, detail: string): asserts link is L {
  if (!link || link.user_id !== actor.user_id) throw notFound(detail);
  authorizePayoutSetup(actor);
}
