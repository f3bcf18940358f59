// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('bidding-service');
import { bootstrapService, serviceMain } from '@market/server-kit';
import { loadBiddingConfig } from './bidding.config';
import { biddingAppModule } from './app.module';
import { BIDDING_DATABASE } from './bidding.database';

// `main.js migrate` applies the schema's migrations and exits (the migrate step); no argument serves (ADR 0053).
void serviceMain('bidding-service', BIDDING_DATABASE, () => {
  const config = loadBiddingConfig();
  return bootstrapService({ service: 'bidding-service', module: biddingAppModule(config), config, defaultHealthPort: 3103 });
});
