// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('auth-service');
import { bootstrapService, serviceMain } from '@market/server-kit';
import { loadAuthConfig } from './auth.config';
import { authAppModule } from './app.module';
import { AUTH_DATABASE } from './auth.database';

// `main.js migrate` applies the schema's migrations and exits (the migrate step); no argument serves (ADR 0053).
void serviceMain('auth-service', AUTH_DATABASE, () => {
  const config = loadAuthConfig();
  return bootstrapService({ service: 'auth-service', module: authAppModule(config), config, defaultHealthPort: 3101 });
});
