// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('listings-service');
import { bootstrapService, ConfigError, domainProofEnv, domainProofSettings, parseEnv, serviceEnv, serviceMain } from '@market/server-kit';
import { listingsAppModule } from './app.module';
import { LISTINGS_DATABASE } from './listings.database';
import { checkVerificationSettings, listingsEnv } from './listings.config';

// `main.js migrate` applies the schema's migrations and exits (the migrate step); no argument serves (ADR 0053).
void serviceMain('listings-service', LISTINGS_DATABASE, () => {
  const config = parseEnv({ ...serviceEnv, ...domainProofEnv, ...listingsEnv });
  try {
    // The ownership proof's test-only settings are refused in production (ADR 0040): one line naming the variable.
    domainProofSettings(config);
    checkVerificationSettings(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  return bootstrapService({ service: 'listings-service', module: listingsAppModule(config), config, defaultHealthPort: 3102 });
});
