import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { ServiceKitModule, type ServiceKitOptions } from './service-kit.module';

@Module({})
class ServiceAppModule {}

/** One service's root module: the kit (database schema, NATS, events, Redis, health) plus its own parts. */
export function defineServiceModule(
  kit: ServiceKitOptions,
  parts: Pick<ModuleMetadata, 'imports' | 'controllers' | 'providers'> = {},
): DynamicModule {
  return {
    module: ServiceAppModule,
    imports: [ServiceKitModule.forRoot(kit), ...(parts.imports ?? [])],
    controllers: parts.controllers ?? [],
    providers: parts.providers ?? [],
  };
}
