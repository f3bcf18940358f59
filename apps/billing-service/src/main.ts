// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('billing-service');
import { bootstrapService, serviceMain } from '@market/server-kit';
import { loadBillingConfig } from './billing.config';
import { billingAppModule } from './app.module';
import { BILLING_DATABASE } from './billing.database';

// `main.js migrate` applies the schema's migrations and exits (the migrate step); no argument serves (ADR 0053).
void serviceMain('billing-service', BILLING_DATABASE, () => {
  const config = loadBillingConfig();
  return bootstrapService({ service: 'billing-service', module: billingAppModule(config), config, defaultHealthPort: 3104 });
});
