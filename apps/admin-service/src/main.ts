// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('admin-service');
import { bootstrapService, parseEnv, serviceEnv, serviceMain } from '@market/server-kit';
import { adminAppModule } from './app.module';
import { ADMIN_DATABASE } from './admin.database';

// `main.js migrate` applies the schema's migrations and exits (the migrate step); no argument serves (ADR 0053).
void serviceMain('admin-service', ADMIN_DATABASE, () => {
  const config = parseEnv(serviceEnv);
  return bootstrapService({ service: 'admin-service', module: adminAppModule(config), config, defaultHealthPort: 3105 });
});
