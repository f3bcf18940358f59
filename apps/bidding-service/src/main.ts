import { bootstrapService, parseEnv, serviceEnv } from '@market/server-kit';
import { biddingAppModule } from './app.module';

const config = parseEnv(serviceEnv);
void bootstrapService({ service: 'bidding-service', module: biddingAppModule(config), config, defaultHealthPort: 3103 });
