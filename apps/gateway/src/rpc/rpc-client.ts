import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RPC, type Actor, type RpcDefinition, type RpcReply, type RpcRequest } from '@market/contracts';
import { RpcClient } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

/** The one services-only subject the gateway itself asks: its session check, never on behalf of a browser. */
const GATEWAY_INTERNAL_CALLS: readonly RpcDefinition[] = [RPC.auth.sessionState];

/** True when the gateway may send this subject: any public one, and its own session check (ADR 0028). */
export function gatewayMayCall(definition: RpcDefinition): boolean {
  return !definition.internal || GATEWAY_INTERNAL_CALLS.includes(definition);
}

/** The gateway's NATS client for service requests (see RpcClient in server-kit); it never sends services-only subjects. */
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

  /** Refuses a services-only subject (a programming error: such answers, e.g. SMTP passwords, must never reach HTTP). */
  override call<D extends RpcDefinition>(definition: D, data: RpcRequest<D>, actor: Actor | null): Promise<RpcReply<D>> {
    if (!gatewayMayCall(definition)) throw new Error(`The gateway must not call the services-only subject ${definition.subject}`);
    return super.call(definition, data, actor);
  }

  async onApplicationBootstrap() {
    await this.connect();
  }

  async onApplicationShutdown() {
    await this.close();
  }
}
