import { bootstrapService } from '@market/server-kit';
import { loadAuthConfig } from './auth.config';
import { authAppModule } from './app.module';

const config = loadAuthConfig();
void bootstrapService({ service: 'auth-service', module: authAppModule(config), config, defaultHealthPort: 3101 });
