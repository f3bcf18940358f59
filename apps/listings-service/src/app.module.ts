import type { DynamicModule } from '@nestjs/common';
import { defineServiceModule, domainProofProviders, ServiceRpc, SettingsModule, type DomainProofConfig, type ServiceConfig } from '@market/server-kit';
import { LISTINGS_DATABASE } from './listings.database';
import { UnwoundSalesRepository } from './listings/unwound-sales.repository';
import { ListingsRepository } from './listings/listings.repository';
import { SellerModerationRepository } from './listings/seller-moderation.repository';
import { SellerModerationService } from './listings/seller-moderation.service';
import { ListingsService } from './listings/listings.service';
import { ListingReadsService } from './listings/listing-reads.service';
import { BrowseService } from './listings/browse.service';
import { SearchVocabulary } from './listings/search-vocabulary';
import { BrowseIndexFeed } from './listings/browse-index/browse-index.feed';
import { ListingsController } from './listings/listings.controller';
import { SellerDirectory } from './listings/seller-directory';
import { SellerEventsHandler } from './listings/seller-events.handler';
import { BidEventsHandler } from './listings/bid-events.handler';
import { BidHistoryClient } from './listings/bid-history.client';
import { SaleTermsService } from './listings/sale-terms.service';
import { WatchlistRepository } from './watchlist/watchlist.repository';
import { WatchlistService } from './watchlist/watchlist.service';
import { ListingStatsController } from './stats/listing-stats.controller';
import { SitemapController } from './sitemap/sitemap.controller';
import { SitemapRepository } from './sitemap/sitemap.repository';
import { ListingCountsRepository } from './stats/listing-counts.repository';
import { ListingsMetrics } from './stats/listings.metrics';
import { OwnershipRepository } from './ownership/ownership.repository';
import { OwnershipService } from './ownership/ownership.service';
import { OwnershipController } from './ownership/ownership.controller';
import { SavedSearchRepository } from './saved-searches/saved-search.repository';
import { SavedSearchService } from './saved-searches/saved-search.service';
import { SavedSearchController } from './saved-searches/saved-search.controller';
import { SavedSearchMatcher } from './saved-searches/saved-search-matcher.handler';
import { UnsubscribeLinks } from './saved-searches/unsubscribe-links';
import { WatchRemindersRepository } from './watchlist/watch-reminders.repository';
import { EndingSoonSweep } from './watchlist/ending-soon.sweep';
import { LISTINGS_CONFIG, type ListingsConfig } from './listings.config';
import { MATCHES_KEPT_MS } from './saved-searches/saved-search.repository';
import { ReviewRepository } from './reviews/review.repository';
import { ReviewsService } from './reviews/reviews.service';
import { ReviewsController } from './reviews/reviews.controller';
import { SellerPageService } from './reviews/seller-page.service';
import { SellerListingsRepository } from './reviews/seller-listings.repository';
import { SaleCompletedHandler } from './reviews/sale-completed.handler';
import { VerifiedFiguresController } from './verification/verified-figures.controller';
import { verificationProviders } from './verification/verification.providers';

/** The listings-service: listings, screenshots metadata, review, browse, watchlist, saved searches, sales' reviews, seller pages and verified figures, in the `listings` schema. */
export function listingsAppModule(config: ServiceConfig & Partial<DomainProofConfig> & Partial<ListingsConfig>): DynamicModule {
  return defineServiceModule(
    {
      service: 'listings-service',
      config,
      ...LISTINGS_DATABASE,
      // A saved search's matches are its recent news (ADR 0074): 30 days, far past any redelivery of listing.approved.
      // The browse index's change feed is read within seconds (ADR 0081); an hour covers any replica's restart.
      retention: () => [
        { table: 'saved_search_matches', column: 'matched_at', keepMs: MATCHES_KEPT_MS },
        { table: 'browse_changes', column: 'changed_at', keepMs: 3_600_000 },
        // Verified figures' daily snapshots (ADR 0084): the newest is what shows; a year and a month of history is plenty.
        { table: 'verification_snapshots', column: 'taken_at', keepMs: 395 * 86_400_000 },
      ],
    },
    {
      imports: [SettingsModule],
      controllers: [ListingStatsController, ListingsController, OwnershipController, SitemapController, SavedSearchController, ReviewsController, VerifiedFiguresController],
      providers: [
        SitemapRepository,
        ServiceRpc,
        ListingsRepository,
        SellerModerationRepository,
        SellerModerationService,
        ListingsService,
        ListingReadsService,
        BrowseService,
        SearchVocabulary,
        BrowseIndexFeed,
        SellerDirectory,
        BidHistoryClient,
        SaleTermsService,
        SellerEventsHandler,
        BidEventsHandler,
        UnwoundSalesRepository,
        WatchlistRepository,
        WatchlistService,
        OwnershipRepository,
        OwnershipService,
        SavedSearchRepository,
        SavedSearchService,
        SavedSearchMatcher,
        UnsubscribeLinks,
        WatchRemindersRepository,
        EndingSoonSweep,
        ReviewRepository,
        ReviewsService,
        SellerPageService,
        SellerListingsRepository,
        SaleCompletedHandler,
        { provide: LISTINGS_CONFIG, useValue: config },
        ListingCountsRepository,
        ListingsMetrics,
        // Ownership proofs look at sellers' domains through the port's Node adapter (ADR 0040).
        ...domainProofProviders(config),
        // Sellers' revenue and traffic sources, read through the official SDKs (D24, ADR 0084).
        ...verificationProviders(config),
      ],
    },
  );
}
