// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('auth-service');
import { bootstrapService } from '@market/server-kit';
import { loadAuthConfig } from './auth.config';
import { authAppModule } from './app.module';

const config = loadAuthConfig();
void bootstrapService({ service: 'auth-service', module: authAppModule(config), config, defaultHealthPort: 3101 });
