import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, SettingsModule, type ServiceConfig } from '@market/server-kit';
import { CreateAuctions1763800900000 } from './migrations/1763800900000-create-auctions';
import { SalesAndOffers1763801000000 } from './migrations/1763801000000-sales-and-offers';
import { WebsiteUrlAndBuyNow1763801100000 } from './migrations/1763801100000-website-url-and-buy-now';
import { BidLeaderIndex1763801450000 } from './migrations/1763801450000-bid-leader-index';
import { PriceVersionAndMemberStates1764510000000 } from './migrations/1764510000000-price-version-and-member-states';
import { WithdrawnBids1764510200000 } from './migrations/1764510200000-withdrawn-bids';
import { BIDDING_CONFIG, withBiddingDefaults, type BiddingConfig } from './bidding.config';
import { AuctionsRepository } from './auctions/auctions.repository';
import { SalesRepository } from './auctions/sales.repository';
import { CloseJobs } from './auctions/close-jobs';
import { BidderNames } from './auctions/bidder-names';
import { ListingEventsHandler } from './auctions/listing-events.handler';
import { ListingCancellationsRepository } from './auctions/listing-cancellations.repository';
import { MemberEventsHandler } from './auctions/member-events.handler';
import { StandingBidsRepository } from './auctions/standing-bids.repository';
import { SaleTermsKeeper } from './auctions/sale-terms';
import { BidsService } from './auctions/bids.service';
import { PaymentMethodCheck } from './auctions/payment-method.check';
import { BidsController } from './auctions/bids.controller';
import { UnwoundSalesAndStrikes1764550100000 } from './migrations/1764550100000-unwound-sales-and-strikes';
import { SaleUnwindingRepository } from './auctions/sale-unwinding.repository';
import { SaleLapsesHandler } from './auctions/sale-lapses.handler';
import { BuyerStrikesRepository } from './auctions/buyer-strikes.repository';
import { BuyingHoldController } from './auctions/buying-hold.controller';

/** The bidding-service: auction state, bids, offers and the end of each sale, in the `bidding` schema. */
export function biddingAppModule(serviceConfig: ServiceConfig & Partial<BiddingConfig>): DynamicModule {
  const config = withBiddingDefaults(serviceConfig);
  return defineServiceModule(
    { service: 'bidding-service', schema: 'bidding', config, entities: [], migrations: [CreateAuctions1763800900000, SalesAndOffers1763801000000, WebsiteUrlAndBuyNow1763801100000, BidLeaderIndex1763801450000, PriceVersionAndMemberStates1764510000000, WithdrawnBids1764510200000, UnwoundSalesAndStrikes1764550100000] },
    {
      imports: [SettingsModule],
      controllers: [BidsController, BuyingHoldController],
      providers: [
        { provide: BIDDING_CONFIG, useValue: config },
        ServiceRpc,
        AuctionsRepository,
        SalesRepository,
        CloseJobs,
        BidderNames,
        SaleTermsKeeper,
        StandingBidsRepository,
        ListingEventsHandler,
        ListingCancellationsRepository,
        MemberEventsHandler,
        BidsService,
        PaymentMethodCheck,
        SaleUnwindingRepository,
        SaleLapsesHandler,
        BuyerStrikesRepository,
      ],
    },
  );
}
