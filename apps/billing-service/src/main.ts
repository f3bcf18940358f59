// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('billing-service');
import { bootstrapService } from '@market/server-kit';
import { loadBillingConfig } from './billing.config';
import { billingAppModule } from './app.module';

const config = loadBillingConfig();
void bootstrapService({ service: 'billing-service', module: billingAppModule(config), config, defaultHealthPort: 3104 });
