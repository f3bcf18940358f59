import { bootstrapService, parseEnv, serviceEnv } from '@market/server-kit';
import { adminAppModule } from './app.module';

const config = parseEnv(serviceEnv);
void bootstrapService({ service: 'admin-service', module: adminAppModule(config), config, defaultHealthPort: 3105 });
