import { bootstrapService, parseEnv, serviceEnv } from '@market/server-kit';
import { listingsAppModule } from './app.module';

const config = parseEnv(serviceEnv);
void bootstrapService({ service: 'listings-service', module: listingsAppModule(config), config, defaultHealthPort: 3102 });
