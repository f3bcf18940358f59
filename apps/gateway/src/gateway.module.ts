import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import { BusIdentity, busIdentity, checkBusKeys, HealthController, ServingState, READINESS_CHECKS, identityProviders, connectNats, createRequestRedis, ensureEventStream, flushTraces, natsCheck, redisCheck, streamLimits } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from './gateway.config';
import { GATEWAY_NATS, GATEWAY_REDIS } from './gateway.tokens';
import { GatewayRpc } from './rpc/rpc-client';
import { JwtAuthGuard, OptionalJwtAuthGuard, TokenAuthenticator } from './auth/jwt-auth.guard';
import { LastSeen } from './auth/last-seen';
import { AuthController } from './auth/auth.controller';
import { UserController } from './account/user.controller';
import { AdminController, StopImpersonationController } from './admin/admin.controller';
import { AuditTrail } from './security/audit-trail';
import { RateLimitGuard } from './security/rate-limit';
import { UPLOADS_PROVIDERS, UploadsController, ObjectStorage } from './uploads';
import { ListingsController } from './listings/listings.controller';
import { UserListingsController } from './listings/user-listings.controller';
import { SavedSearchesController } from './listings/saved-searches.controller';
import { ReviewsController } from './reviews/reviews.controller';
import { AdminListingsController } from './listings/admin-listings.controller';
import { ListingOwnershipController } from './listings/listing-ownership.controller';
import { VerifiedFiguresController } from './listings/verified-figures.controller';
import { TransferProofController } from './invoices/transfer-proof.controller';
import { ListingWrites } from './listings/listing-writes';
import { BrowseCache } from './listings/browse-cache';
import { BidsController } from './bids/bids.controller';
import { AdminBuyingController } from './bids/admin-buying.controller';
import { SaleCancellationController } from './admin-billing/sale-cancellation.controller';
import { InvoicesController } from './invoices/invoices.controller';
import { AdminPaymentsController, PaymentsController } from './payments/payments.controller';
import { PaymentMethodController } from './payments/payment-method.controller';
import { PayoutsController } from './payments/payouts.controller';
import { LedgerController } from './admin-billing/ledger.controller';
import { LiveFeed } from './live/live-feed';
import { AdminBillingController } from './admin-billing/admin-billing.controller';
import { StripeWebhookController } from './webhooks/stripe-webhook.controller';
import { MessagesController } from './messages/messages.controller';
import { ContactController } from './contact/contact.controller';
import { FeesController } from './fees/fees.controller';
import { ErrorCodesController } from './errors/error-codes.controller';
import { SiteController } from './site/site.controller';
import { SiteFilesController } from './site/site-files.controller';
import { PageRenderer } from './site/page-renderer';
import { Sitemaps } from './site/sitemaps';

class GatewayConnections implements OnApplicationShutdown {
  constructor(
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
    @Inject(GATEWAY_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown() {
    await this.nc.drain().catch(() => undefined);
    this.redis.disconnect();
    await flushTraces();
  }
}

/** The gateway: the only public HTTP entry; routes /api to services over NATS. */
@Module({})
export class GatewayModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [
        HealthController,
        AuthController,
        UserController,
        AdminController,
        StopImpersonationController,
        ListingsController,
        UserListingsController,
        SavedSearchesController,
        ReviewsController,
        AdminListingsController,
        ListingOwnershipController,
        VerifiedFiguresController,
        TransferProofController,
        UploadsController,
        BidsController,
        AdminBuyingController,
        SaleCancellationController,
        InvoicesController,
        PaymentsController,
        PaymentMethodController,
        PayoutsController,
        AdminPaymentsController,
        LedgerController,
        AdminBillingController,
        StripeWebhookController,
        MessagesController,
        ContactController,
        FeesController,
        ErrorCodesController,
        SiteController,
        SiteFilesController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        // The gateway signs its requests and audit events and checks replies and events (D25, ADR 0065).
        { provide: BusIdentity, useFactory: () => checkBusKeys(busIdentity('gateway', config)) },
        {
          provide: GATEWAY_NATS,
          useFactory: async () => {
            const nc = await connectNats(config.NATS_URL, 'gateway');
            await ensureEventStream(nc, { stream: config.EVENTS_STREAM, prefix: config.EVENTS_PREFIX }, streamLimits(config));
            return nc;
          },
        },
        // Rate limits are on the request path: commands fail within 250 ms instead of queueing (ADR 0044).
        { provide: GATEWAY_REDIS, useFactory: () => createRequestRedis(config.REDIS_URL, 'gateway') },
        {
          provide: READINESS_CHECKS,
          inject: [GATEWAY_NATS, GATEWAY_REDIS, ObjectStorage],
          useFactory: (nc: NatsConnection, redis: Redis, storage: ObjectStorage) => [natsCheck(nc), redisCheck(redis), storage.readinessCheck()],
        },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        GatewayConnections,
        ServingState,
        GatewayRpc,
        ...identityProviders(GATEWAY_CONFIG, 'gateway'),
        LastSeen,
        TokenAuthenticator,
        JwtAuthGuard,
        OptionalJwtAuthGuard,
        AuditTrail,
        ...UPLOADS_PROVIDERS,
        ListingWrites,
        BrowseCache,
        Sitemaps,
        PageRenderer,
        LiveFeed,
      ],
    };
  }
}
