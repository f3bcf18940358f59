// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('listings-service');
import { bootstrapService, ConfigError, domainProofEnv, domainProofSettings, parseEnv, serviceEnv } from '@market/server-kit';
import { listingsAppModule } from './app.module';

const config = parseEnv({ ...serviceEnv, ...domainProofEnv });
try {
  // The ownership proof's test-only settings are refused in production (ADR 0040): one line naming the variable.
  domainProofSettings(config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
void bootstrapService({ service: 'listings-service', module: listingsAppModule(config), config, defaultHealthPort: 3102 });
