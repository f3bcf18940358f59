import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Actor, RpcDefinition, RpcReply, RpcRequest } from '@market/contracts';
import { BusIdentity, RpcClient, type RpcCallOptions } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

/**
 * True when the gateway may send this subject on a browser's behalf: public ones only (ADR 0028). Its token check asks
 * auth.session_state through the identity verifier's own client, never through this one.
 */
export function gatewayMayCall(definition: RpcDefinition): boolean {
  return !definition.internal;
}

/** The gateway's NATS client for service requests (see RpcClient in server-kit); it never sends services-only subjects. */
@Injectable()
export class GatewayRpc extends RpcClient implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, bus: BusIdentity) {
    super({
      bus,
      natsUrl: config.NATS_URL,
      name: 'gateway-rpc',
      timeoutMs: config.RPC_TIMEOUT_MS,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      checkReplies: config.CHECK_CONTRACTS,
    });
  }

  /** Refuses a services-only subject (a programming error: such answers, e.g. SMTP passwords, must never reach HTTP). */
  override call<D extends RpcDefinition>(definition: D, data: RpcRequest<D>, actor: Actor | null, options?: RpcCallOptions): Promise<RpcReply<D>> {
    if (!gatewayMayCall(definition)) throw new Error(`The gateway must not call the services-only subject ${definition.subject}`);
    return super.call(definition, data, actor, options);
  }

  async onApplicationBootstrap() {
    await this.connect();
  }

  async onApplicationShutdown() {
    await this.close();
  }
}
