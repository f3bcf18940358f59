import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { leadingBidOrder } from '../auctions/auction-maximums.repository';

/** One bidder's own standing on one listing, as stored (ADR 0060). */
export interface OwnStandingRecord {
  has_bid: boolean;
  leading: boolean;
  /** Their maximum when they set one (ADR 0055), else null. */
  max_amount: number | null;
}

/**
 * Params: listing id, bidder id. Every read is keyed by (listing_id, bidder_id) or is the listing's one leading bid, so
 * its cost does not grow with the viewer's other bids; the leader is asked only of a viewer who bid (ADR 0060). `leading`
 * is My Bids' rule: the accepted bid is theirs, or the leading pending bid of a sale not yet sold is.
 */
const MY_STANDING_SQL = `
  WITH own AS (SELECT EXISTS (SELECT 1 FROM bids o WHERE o.listing_id = $1 AND o.bidder_id = $2 AND o.kind = 'bid') AS has_bid)
  SELECT own.has_bid,
    (SELECT m.max_amount::float8 FROM auction_maximums m WHERE m.listing_id = $1 AND m.bidder_id = $2 AND m.proxy) AS max_amount,
    CASE WHEN NOT own.has_bid THEN false ELSE (
      EXISTS (SELECT 1 FROM bids w WHERE w.listing_id = $1 AND w.status = 'accepted' AND w.bidder_id = $2)
      OR EXISTS (
        SELECT 1 FROM auctions a CROSS JOIN LATERAL (
          SELECT h.bidder_id FROM bids h LEFT JOIN auction_maximums hm ON hm.listing_id = h.listing_id AND hm.bidder_id = h.bidder_id
          WHERE h.listing_id = a.listing_id AND h.status = 'pending' AND h.kind = 'bid'
          ORDER BY ${leadingBidOrder('h', 'hm')} LIMIT 1) lead
        WHERE a.listing_id = $1 AND a.status NOT IN ('sold', 'deleted') AND lead.bidder_id = $2)
    ) END AS leading
  FROM own`;

/** Reads a viewer's own standing on a listing for the bid form (ADR 0060); nothing of other bidders leaves it. */
@Injectable()
export class MyStandingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The bidder's stake, lead and own maximum on the listing; all false/null when they never bid there. */
  async of(listingId: string, bidderId: string): Promise<OwnStandingRecord> {
    const [row]: OwnStandingRecord[] = await this.dataSource.query(MY_STANDING_SQL, [listingId, bidderId]);
    return row;
  }
}
