import type { ServiceDatabase } from '@market/server-kit';
import { CreateAuctions1763800900000 } from './migrations/1763800900000-create-auctions';
import { SalesAndOffers1763801000000 } from './migrations/1763801000000-sales-and-offers';
import { WebsiteUrlAndBuyNow1763801100000 } from './migrations/1763801100000-website-url-and-buy-now';
import { BidLeaderIndex1763801450000 } from './migrations/1763801450000-bid-leader-index';
import { PriceVersionAndMemberStates1764510000000 } from './migrations/1764510000000-price-version-and-member-states';
import { WithdrawnBids1764510200000 } from './migrations/1764510200000-withdrawn-bids';
import { UnwoundSalesAndStrikes1764550100000 } from './migrations/1764550100000-unwound-sales-and-strikes';
import { ProxyMaximums1764600500000 } from './migrations/1764600500000-proxy-maximums';
import { MyStandingIndex1764600600000 } from './migrations/1764600600000-my-standing-index';

/** The `bidding` schema: what the bidding-service and its migrate step (ADR 0053) open. */
export const BIDDING_DATABASE: ServiceDatabase = {
  schema: 'bidding',
  entities: [],
  migrations: [CreateAuctions1763800900000, SalesAndOffers1763801000000, WebsiteUrlAndBuyNow1763801100000, BidLeaderIndex1763801450000, PriceVersionAndMemberStates1764510000000, WithdrawnBids1764510200000, UnwoundSalesAndStrikes1764550100000, ProxyMaximums1764600500000, MyStandingIndex1764600600000],
};
