import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { IDENTITY_REDIS } from '@market/server-kit';

const EVERY_MS = 60_000;
const REMEMBERED = 50_000;
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Notes in Redis when a session was last used, at most once a minute per session and gateway, for the owner's list of
 * sessions (ADR 0030). Best effort: a failed write is logged once and never holds a request.
 */
@Injectable()
export class LastSeen {
  private readonly logger = new Logger('LastSeen');
  private readonly noted = new Map<string, number>();
  private failing = false;

  constructor(
    // The identity verifier's fail-fast connection: while Redis is away a note fails at once instead of queueing.
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  note(sessionId: string): void {
    const now = Date.now();
    if (now - (this.noted.get(sessionId) ?? 0) < EVERY_MS) return;
    this.noted.delete(sessionId);
    this.noted.set(sessionId, now);
    if (this.noted.size > REMEMBERED) this.noted.delete(this.noted.keys().next().value as string);
    this.redis.set(`${this.config.REDIS_KEY_PREFIX}lastseen:${sessionId}`, String(now), 'EX', TTL_SECONDS).then(
      () => (this.failing = false),
      (error: Error) => {
        if (!this.failing) this.logger.warn(`Could not note a session's last use: ${error.message}`);
        this.failing = true;
      },
    );
  }
}
