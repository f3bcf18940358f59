import { z } from 'zod';
import { MAX_DOLLARS } from '@market/domain';

/** POST /api/bids (SPEC §7): whole dollars only; the service applies the bidding rules (D6). */
export const PlaceBidSchema = z
  .object({
    listing_id: z.uuid({ message: 'Not a valid listing id' }),
    amount: z
      .number({ message: 'Bid amount must be a number' })
      .int('Bid amount must be whole dollars')
      .min(1, 'Bid amount must be at least $1')
      .max(MAX_DOLLARS, 'Bid amount is too large'),
  })
  .strict();
export type PlaceBid = z.infer<typeof PlaceBidSchema>;

/** A bid in a listing's history (SPEC §3 Bid detail). */
export interface BidDto {
  id: string;
  bidder_name: string;
  amount: number;
  created_at: string;
}

/** POST /api/bids answer: the accepted bid and the auction as it now stands. */
export interface PlaceBidResponse {
  message: string;
  bid: BidDto;
  current_bid: number;
  bid_count: number;
  expires_at: string | null;
  extended: boolean;
}

/** GET /api/listings/{id}/bids: the latest 10 (SPEC §9). */
export interface BidHistoryResponse {
  bids: BidDto[];
}
