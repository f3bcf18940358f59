import { bootstrapService } from '@market/server-kit';
import { loadBiddingConfig } from './bidding.config';
import { biddingAppModule } from './app.module';

const config = loadBiddingConfig();
void bootstrapService({ service: 'bidding-service', module: biddingAppModule(config), config, defaultHealthPort: 3103 });
