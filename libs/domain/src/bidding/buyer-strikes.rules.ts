/** How far back a lapsed purchase counts against its buyer (ADR 0043). */
export const STRIKE_WINDOW_DAYS = 90;
/** Strikes within the window that put a member's buying on hold. */
export const STRIKES_FOR_HOLD = 2;
/** The 403 a member on hold gets for a bid, an offer or a buy-now. */
export const BUYING_HOLD_MESSAGE = 'Your buying is on hold after two unpaid purchases. Contact support to lift it.';

/** A lapsed purchase counted against its buyer; an admin's lift clears it. */
export interface BuyerStrike {
  struck_at: Date;
  lifted_at: Date | null;
}

/**
 * Where the member's buying stands (ADR 0043): the strikes that count now (not lifted by an admin, within the last 90
 * days, not in the future) and whether they put it on hold (two or more). A strike older than the window no longer
 * counts; a lift clears every strike made before it, later ones count afresh. The one rule: the SQL of the hold reads
 * (bidding-service's buyer-strikes.repository) is checked against it.
 */
export function buyingHoldOf(strikes: readonly BuyerStrike[], now: Date): { on_hold: boolean; strikes: number } {
  const since = now.getTime() - STRIKE_WINDOW_DAYS * 24 * 3600_000;
  const counting = strikes.filter((strike) => strike.lifted_at === null && strike.struck_at.getTime() > since && strike.struck_at.getTime() <= now.getTime());
  return { on_hold: counting.length >= STRIKES_FOR_HOLD, strikes: counting.length };
}

/** True when the member's buying is on hold (buyingHoldOf). */
export function buyingOnHold(strikes: readonly BuyerStrike[], now: Date): boolean {
  return buyingHoldOf(strikes, now).on_hold;
}
