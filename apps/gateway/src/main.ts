// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('gateway');
import { drainOnSignals, JsonLogger, refuseOpenInfra, serviceCommand, startMetricsServer } from '@market/server-kit';
import { loadGatewayConfig } from './gateway.config';
import { createGateway } from './create-gateway';

async function main() {
  // The gateway owns no schema: `gateway migrate` (or any argument) is one line and exit code 2 (ADR 0053).
  serviceCommand('gateway', false);
  const config = loadGatewayConfig();
  const logger = new JsonLogger('gateway', config.LOG_LEVEL);
  try {
    await refuseOpenInfra(config);
    const app = await createGateway(config);
    await app.listen(config.PORT, config.HOST);
    // Metrics stay off the public port (ADR 0048).
    if (config.METRICS_PORT !== 0) await startMetricsServer(config.METRICS_PORT, config.METRICS_HOST);
    // SIGTERM: /readyz answers 503 at once, then the server stops taking connections and closes (ADR 0050).
    drainOnSignals(app, config, logger);
    logger.log(`gateway listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`, 'Bootstrap');
  } catch (error) {
    logger.error(`gateway failed to start: ${(error as Error).message}`, 'Bootstrap');
    process.exit(1);
  }
}

void main();
