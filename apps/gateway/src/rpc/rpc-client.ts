import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { randomUUID } from 'node:crypto';
import { isRpcErrorPayload, type Actor, type RpcEnvelope } from '@market/contracts';
import { AppError, currentRequestId, unavailable } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

/** Sends NATS requests to services with the actor and request id; no answer in time is a 503. */
@Injectable()
export class RpcClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RpcClient');
  private readonly client: ClientProxy;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.client = ClientProxyFactory.create({
      transport: Transport.NATS,
      options: { servers: config.NATS_URL.split(','), name: 'gateway-rpc', maxReconnectAttempts: -1, reconnectTimeWait: 500 },
    });
  }

  async onApplicationBootstrap() {
    await this.client.connect();
  }

  async onApplicationShutdown() {
    await this.client.close();
  }

  /** Requests `subject` and returns the service's answer, or throws its typed error. */
  async send<T>(subject: string, data: unknown, actor: Actor | null): Promise<T> {
    const envelope: RpcEnvelope = { meta: { request_id: currentRequestId() ?? randomUUID(), actor }, data };
    try {
      return await firstValueFrom(this.client.send<T>(subject, envelope).pipe(timeout(this.config.RPC_TIMEOUT_MS)));
    } catch (error) {
      if (isRpcErrorPayload(error)) throw AppError.fromPayload(error);
      if (error instanceof TimeoutError) {
        this.logger.warn(`${subject} did not answer within ${this.config.RPC_TIMEOUT_MS} ms`);
      } else {
        this.logger.warn(`${subject} failed: ${(error as Error)?.message ?? String(error)}`);
      }
      throw unavailable();
    }
  }
}
