import { bootstrapService } from '@market/server-kit';
import { loadNotificationsConfig } from './notifications.config';
import { notificationsAppModule } from './app.module';

const config = loadNotificationsConfig();
void bootstrapService({ service: 'notifications-service', module: notificationsAppModule(config), config, defaultHealthPort: 3106 });
