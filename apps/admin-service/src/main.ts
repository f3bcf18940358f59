// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('admin-service');
import { bootstrapService, parseEnv, serviceEnv } from '@market/server-kit';
import { adminAppModule } from './app.module';

const config = parseEnv(serviceEnv);
void bootstrapService({ service: 'admin-service', module: adminAppModule(config), config, defaultHealthPort: 3105 });
