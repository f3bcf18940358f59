import { bootstrapService } from '@market/server-kit';
import { loadBillingConfig } from './billing.config';
import { billingAppModule } from './app.module';

const config = loadBillingConfig();
void bootstrapService({ service: 'billing-service', module: billingAppModule(config), config, defaultHealthPort: 3104 });
