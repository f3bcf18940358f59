// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('bidding-service');
import { bootstrapService } from '@market/server-kit';
import { loadBiddingConfig } from './bidding.config';
import { biddingAppModule } from './app.module';

const config = loadBiddingConfig();
void bootstrapService({ service: 'bidding-service', module: biddingAppModule(config), config, defaultHealthPort: 3103 });
