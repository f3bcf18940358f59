import { Logger } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import { PrefixedNatsClient } from './prefixed-nats';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { randomUUID } from 'node:crypto';
import { isRpcErrorPayload, type Actor, type RpcEnvelope } from '@market/contracts';
import { AppError, unavailable } from '../errors/app-error';
import { currentRequestId } from '../logging/request-context';

/** Sends NATS requests to services with the actor and request id; no answer in time is a 503. */
export class RpcClient {
  private readonly logger = new Logger('RpcClient');
  private readonly client: ClientNats;

  constructor(
    natsUrl: string,
    name: string,
    private readonly timeoutMs: number,
    subjectPrefix = '',
  ) {
    this.client = new PrefixedNatsClient({ servers: natsUrl.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 500 }, subjectPrefix);
  }

  connect(): Promise<unknown> {
    return this.client.connect();
  }

  close(): Promise<unknown> {
    return this.client.close() ?? Promise.resolve();
  }

  /** Requests `subject` and returns the service's answer, or throws its typed error. */
  async send<T>(subject: string, data: unknown, actor: Actor | null): Promise<T> {
    const envelope: RpcEnvelope = { meta: { request_id: currentRequestId() ?? randomUUID(), actor }, data };
    try {
      return await firstValueFrom(this.client.send<T>(subject, envelope).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      if (isRpcErrorPayload(error)) throw AppError.fromPayload(error);
      if (error instanceof TimeoutError) {
        this.logger.warn(`${subject} did not answer within ${this.timeoutMs} ms`);
      } else {
        this.logger.warn(`${subject} failed: ${(error as Error)?.message ?? String(error)}`);
      }
      throw unavailable();
    }
  }
}
