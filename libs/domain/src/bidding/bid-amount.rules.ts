import { MAX_DOLLARS } from '../money/money.rules';

/** The amount fields of a bid request: the bid itself and the proxy maximum (ADR 0055). */
export type BidAmountField = 'amount' | 'max_amount';

/**
 * The words of a bid's amount rules, one set per field: the request schema (PlaceBidSchema) says them and the bid
 * form says them before sending, from here, so the two cannot drift apart.
 */
export const BID_AMOUNT_WORDS = {
  amount: {
    number: 'Bid amount must be a number',
    whole: 'Bid amount must be whole dollars',
    min: 'Bid amount must be at least $1',
    max: 'Bid amount is too large',
  },
  max_amount: {
    number: 'Maximum bid must be a number',
    whole: 'Maximum bid must be whole dollars',
    min: 'Maximum bid must be at least $1',
    max: 'Maximum bid is too large',
  },
} as const;

/** What a maximum below the bid it comes with is told (ADR 0055). */
export const MAX_BELOW_BID = 'Your maximum bid must be at least your bid';

/**
 * The first amount rule `value` breaks for `field` (a finite number, whole dollars, $1 to MAX_DOLLARS), or null. A
 * number past 2^53 is not a whole number of dollars that can be told apart from its neighbours, so it is refused as
 * not whole, as the schema's integer check refuses it.
 */
export function bidAmountRefusal(field: BidAmountField, value: number): string | null {
  const words = BID_AMOUNT_WORDS[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) return words.number;
  if (!Number.isSafeInteger(value)) return words.whole;
  if (value < 1) return words.min;
  if (value > MAX_DOLLARS) return words.max;
  return null;
}

/** The refusal of a maximum that comes with a valid bid: its own rules first, then at least the bid; null when fine. */
export function maxAmountRefusal(amount: number, maxAmount: number): string | null {
  return bidAmountRefusal('max_amount', maxAmount) ?? (maxAmount < amount ? MAX_BELOW_BID : null);
}
