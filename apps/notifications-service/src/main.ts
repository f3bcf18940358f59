// Tracing starts before anything else loads, so its instrumentations patch http, pg and ioredis (ADR 0049).
import { startTracing } from '@market/server-kit/tracing';
startTracing('notifications-service');
import { bootstrapService, serviceMain } from '@market/server-kit';
import { loadNotificationsConfig } from './notifications.config';
import { notificationsAppModule } from './app.module';
import { NOTIFICATIONS_DATABASE } from './notifications.database';

// `main.js migrate` applies the schema's migrations and exits (the migrate step); no argument serves (ADR 0053).
void serviceMain('notifications-service', NOTIFICATIONS_DATABASE, () => {
  const config = loadNotificationsConfig();
  return bootstrapService({ service: 'notifications-service', module: notificationsAppModule(config), config, defaultHealthPort: 3106 });
});
