import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, ServiceRpc, SettingsModule, type ServiceConfig } from '@market/server-kit';
import { BIDDING_DATABASE } from './bidding.database';
import { BIDDING_CONFIG, withBiddingDefaults, type BiddingConfig } from './bidding.config';
import { AuctionsRepository } from './auctions/auctions.repository';
import { SalesRepository } from './auctions/sales.repository';
import { CloseJobs } from './auctions/close-jobs';
import { BidderNames } from './auctions/bidder-names';
import { ListingEventsHandler } from './auctions/listing-events.handler';
import { ListingCancellationsRepository } from './auctions/listing-cancellations.repository';
import { MemberEventsHandler } from './auctions/member-events.handler';
import { StandingBidsRepository } from './auctions/standing-bids.repository';
import { MyStandingRepository } from './auctions/my-standing.repository';
import { SaleTermsKeeper } from './auctions/sale-terms';
import { BidsService } from './auctions/bids.service';
import { BidQueue } from './auctions/bid-queue';
import { PaymentMethodCheck } from './auctions/payment-method.check';
import { BidsController } from './auctions/bids.controller';
import { SaleUnwindingRepository } from './auctions/sale-unwinding.repository';
import { SaleLapsesHandler } from './auctions/sale-lapses.handler';
import { BuyerStrikesRepository } from './auctions/buyer-strikes.repository';
import { BuyingHoldController } from './auctions/buying-hold.controller';

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
        SalesRepository,
        CloseJobs,
        BidderNames,
        SaleTermsKeeper,
        StandingBidsRepository,
        MyStandingRepository,
        ListingEventsHandler,
        ListingCancellationsRepository,
        MemberEventsHandler,
        BidQueue,
        BidsService,
        PaymentMethodCheck,
        SaleUnwindingRepository,
        SaleLapsesHandler,
        BuyerStrikesRepository,
      ],
    },
  );
}
