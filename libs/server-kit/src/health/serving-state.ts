import { Injectable } from '@nestjs/common';

/** What a process draining on SIGTERM stops taking: its NATS request subscriptions (services). */
export interface DrainableServer {
  /** Leaves the queue group: new requests go to the other replicas. */
  stopAccepting(): Promise<void>;
  /** Resolves once every request taken has been answered, or after `timeoutMs`; false when it timed out. */
  idle(timeoutMs: number): Promise<boolean>;
}

/**
 * Whether the process is taking work. /readyz turns false the moment draining starts (before anything closes), so a
 * load balancer stops sending while requests in flight are still answered (ADR 0050).
 */
@Injectable()
export class ServingState {
  private draining = false;
  private server: DrainableServer | null = null;

  get isDraining(): boolean {
    return this.draining;
  }

  /** The request server to stop when draining (set once it has joined its queue group). */
  attach(server: DrainableServer): void {
    this.server = server;
  }

  /**
   * Reports not ready, waits `delayMs` for peers to notice, leaves the queue group and waits for requests in flight;
   * true when they all finished within `timeoutMs`.
   */
  async drain(options: { delayMs: number; timeoutMs: number }): Promise<boolean> {
    this.draining = true;
    if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (!this.server) return true;
    await this.server.stopAccepting();
    return this.server.idle(options.timeoutMs);
  }
}
