import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, SettingsModule, type ServiceConfig } from '@market/server-kit';
import { BIDDING_DATABASE } from './bidding.database';
import { BIDDING_CONFIG, withBiddingDefaults, type BiddingConfig } from './bidding.config';
import { PlaceBids } from './bids/place-bids';
import { AuctionsRepository } from './auctions/auctions.repository';
import { SalesRepository } from './sales/sales.repository';
import { EndSales } from './sales/end-sales';
import { PlaceOffer } from './bids/place-offer';
import { CloseJobs } from './close/close-jobs';
import { BidderNames } from './bids/bidder-names';
import { ListingEventsHandler } from './listing-terms/listing-events.handler';
import { ListingCancellationsRepository } from './listing-terms/listing-cancellations.repository';
import { MemberEventsHandler } from './sales/member-events.handler';
import { StandingBidsRepository } from './sales/standing-bids.repository';
import { MyStandingRepository } from './bids/my-standing.repository';
import { SaleTermsKeeper } from './listing-terms/sale-terms';
import { BidsService } from './bids/bids.service';
import { BidQueue } from './bids/bid-queue';
import { PaymentMethodCheck } from './bids/payment-method.check';
import { BidsController } from './bids/bids.controller';
import { UnwindSale } from './sales/unwind-sale';
import { StandingBids } from './sales/standing-bids';
import { CancelSale } from './listing-terms/cancel-sale';
import { SaleLapsesHandler } from './sales/sale-lapses.handler';
import { BuyerStrikesRepository } from './holds/buyer-strikes.repository';
import { BuyingHoldController } from './holds/buying-hold.controller';

/** The bidding-service: auction state, bids, offers and the end of each sale, in the `bidding` schema. */
export function biddingAppModule(serviceConfig: ServiceConfig & Partial<BiddingConfig>): DynamicModule {
  const config = withBiddingDefaults(serviceConfig);
  return defineServiceModule(
    { service: 'bidding-service', config, ...BIDDING_DATABASE },
    {
      imports: [SettingsModule],
      controllers: [BidsController, BuyingHoldController],
      providers: [
        { provide: BIDDING_CONFIG, useValue: config },
        ServiceRpc,
        AuctionsRepository,
        PlaceBids,
        SalesRepository,
        EndSales,
        PlaceOffer,
        CloseJobs,
        BidderNames,
        SaleTermsKeeper,
        StandingBidsRepository,
        StandingBids,
        MyStandingRepository,
        ListingEventsHandler,
        ListingCancellationsRepository,
        CancelSale,
        MemberEventsHandler,
        BidQueue,
        BidsService,
        PaymentMethodCheck,
        UnwindSale,
        SaleLapsesHandler,
        BuyerStrikesRepository,
      ],
    },
  );
}
