import { Inject, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_NAME } from '../bootstrap/service-kit.module';
import type { ServiceConfig } from '../config/env';
import { BusIdentity } from '../bus/bus-identity';
import { RpcClient } from '../rpc/rpc-client';
import { SettingsClient } from './settings-client';

const SETTINGS_TIMEOUT_MS = 2000;

class SettingsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(SettingsClient) private readonly settings: SettingsClient) {}
  async onApplicationBootstrap() {
    await this.settings.start();
  }
  async onApplicationShutdown() {
    await this.settings.stop();
  }
}

/** Gives a service a SettingsClient (import it where platform settings matter). */
@Module({
  providers: [
    {
      provide: SettingsClient,
      inject: [SERVICE_CONFIG, SERVICE_NAME, NATS_CONNECTION, BusIdentity],
      useFactory: (config: ServiceConfig, service: string, nc: NatsConnection, bus: BusIdentity) =>
        new SettingsClient(
          new RpcClient({
            bus,
            natsUrl: config.NATS_URL,
            name: `${service}-settings`,
            timeoutMs: SETTINGS_TIMEOUT_MS,
            subjectPrefix: config.NATS_SUBJECT_PREFIX,
            checkReplies: config.CHECK_CONTRACTS,
          }),
          nc,
          config.NATS_SUBJECT_PREFIX,
        ),
    },
    SettingsLifecycle,
  ],
  exports: [SettingsClient],
})
export class SettingsModule {}
