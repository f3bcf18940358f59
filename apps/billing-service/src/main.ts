import { bootstrapService, parseEnv, serviceEnv } from '@market/server-kit';
import { billingAppModule } from './app.module';

const config = parseEnv(serviceEnv);
void bootstrapService({ service: 'billing-service', module: billingAppModule(config), config, defaultHealthPort: 3104 });
