import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { JSONCodec, type NatsConnection } from 'nats';
import type { EventEnvelope, EventPayloads } from '@market/contracts';
import { BusIdentity, checkEventPayload, currentRequestId, eventHeaders, eventSignature, eventSubject, unavailable } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_NATS } from '../gateway.tokens';

type AuditAction = EventPayloads['audit.recorded']['action'];

/** Writes audit.recorded events to JetStream; the gateway has no database, so the stream's ack is the record. */
@Injectable()
export class AuditTrail {
  private readonly logger = new Logger('AuditTrail');
  private readonly codec = JSONCodec<EventEnvelope<'audit.recorded'>>();

  constructor(
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly bus: BusIdentity,
  ) {}

  /** Records one action; when it cannot be recorded the request is refused (503) rather than left unaudited. */
  async record(adminId: string, targetId: string, action: AuditAction, method: string, route: string): Promise<void> {
    const envelope: EventEnvelope<'audit.recorded'> = {
      id: randomUUID(),
      name: 'audit.recorded',
      occurred_at: new Date().toISOString(),
      request_id: currentRequestId(),
      payload: { admin_id: adminId, target_id: targetId, action, method, route, at: new Date().toISOString() },
    };
    checkEventPayload('audit.recorded', envelope.payload);
    // Signed by the gateway, the event's declared writer, or admin-service would not record it (ADR 0065).
    const signed = eventSignature(this.bus.signer, envelope);
    try {
      await this.nc.jetstream().publish(eventSubject(this.config.EVENTS_PREFIX, envelope.name), this.codec.encode(envelope), {
        msgID: envelope.id,
        timeout: 2000,
        headers: eventHeaders(signed.sender, signed.signature),
      });
    } catch (error) {
      this.logger.error(`Could not record ${action} by ${adminId}: ${(error as Error).message}`);
      throw unavailable('The audit log is unavailable, so this action was not performed. Please try again.');
    }
  }
}
