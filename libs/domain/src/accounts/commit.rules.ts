/** What a member commits to: a bid, an offer, a buy-now purchase or a listing for sale (ADR 0037). */
export type CommitAct = 'bid' | 'offer' | 'buy' | 'list';

/** The account facts the rule reads: its current state, as every process's identity check knows it (ADR 0030). */
export interface Committer {
  status?: 'active' | 'suspended' | 'deleted';
  /** Unknown counts as not verified: the rule fails closed. */
  email_verified?: boolean;
}

const VERBS: Record<CommitAct, string> = { bid: 'bid', offer: 'make an offer', buy: 'buy a website', list: 'list a website for sale' };

/**
 * Why a member may not commit to a sale, or null when they may (ADR 0037): a suspended or deleted account never may;
 * an unverified email may not while the platform requires one (the admin setting require_verified_email, default on).
 * The reason says what to do next.
 */
export function commitRefusal(who: Committer, act: CommitAct, requireVerifiedEmail: boolean): string | null {
  if (who.status === 'suspended') return `Your account is suspended, so you cannot ${VERBS[act]}. Please contact support.`;
  if (who.status === 'deleted') return `This account was deleted, so it cannot ${VERBS[act]}.`;
  if (requireVerifiedEmail && who.email_verified !== true) {
    return `Verify your email address to ${VERBS[act]}. We can send the link again from your profile.`;
  }
  return null;
}
