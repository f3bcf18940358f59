// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('notifications-service');
import { bootstrapService } from '@market/server-kit';
import { loadNotificationsConfig } from './notifications.config';
import { notificationsAppModule } from './app.module';

const config = loadNotificationsConfig();
void bootstrapService({ service: 'notifications-service', module: notificationsAppModule(config), config, defaultHealthPort: 3106 });
