import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RpcClient } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

/** The gateway's NATS client for service requests (see RpcClient in server-kit). */
@Injectable()
export class GatewayRpc extends RpcClient implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super({
      natsUrl: config.NATS_URL,
      name: 'gateway-rpc',
      timeoutMs: config.RPC_TIMEOUT_MS,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      checkReplies: config.CHECK_CONTRACTS,
    });
  }

  async onApplicationBootstrap() {
    await this.connect();
  }

  async onApplicationShutdown() {
    await this.close();
  }
}
